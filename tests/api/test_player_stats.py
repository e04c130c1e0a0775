"""A player's stats equal a recount of their games, after 120 games played at once.

Real ``foursquare serve`` processes, real concurrent clients: several threads play for the
same player at the same time (wins from the conformance vectors' winning lines, random games,
games left unfinished), then the stats on ``GET /players/{name}`` are compared with a count of
the games listed on ``GET /players/{name}/games``, and every win's rank with a sort of all
the wins.
"""

from __future__ import annotations

import random
import threading
from datetime import datetime
from typing import Any

import httpx
import pytest

from api.accounts import store as accounts_store
from api.core.database import create_database
from api.leaderboards import check as leaderboard
from api.settings import Settings
from testkit.games import start_game
from testkit.server import running_server
from tests.integrity.players import WinningLine, winning_lines
from tests.support.fairplay import boarded

# A hundred games and more through a real server: the slow tier (`-m "not slow"` leaves it out).
pytestmark = pytest.mark.slow

PLAYERS = ("ana", "bob", "carol")
THREADS = 6  # two per player
GAMES_PER_THREAD = 20  # 120 games: enough to interleave wins, losses and unfinished games


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def recount(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The stats of a player, computed from their games alone."""
    won = [g for g in games if g["status"] == "won"]
    lost = [g for g in games if g["status"] == "lost"]
    finished = sorted(won + lost, key=lambda g: datetime.fromisoformat(g["finished_at"]))
    current = longest = 0
    for game in finished:
        current = current + 1 if game["status"] == "won" else 0
        longest = max(longest, current)
    moments = [g["created_at"] for g in games] + [g["finished_at"] for g in finished]
    scores = [g["score"] for g in won]
    return {
        "games_played": len(games),
        "games_won": len(won),
        "games_lost": len(lost),
        "games_in_progress": len(games) - len(finished),
        "win_rate": len(won) / len(finished) if finished else None,
        "best_score": max(scores) if scores else None,
        "mean_winning_score": sum(scores) / len(scores) if scores else None,
        "current_streak": current,
        "longest_streak": longest,
        "last_played_at": max(moments, key=datetime.fromisoformat) if moments else None,
        "races_played": 0,  # these players race no one
        "races_won": 0,
    }


def all_games(http: httpx.Client, name: str) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    params: dict[str, Any] = {"limit": 100}
    while True:
        response = http.get(f"/players/{name}/games", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        games += page["games"]
        if page["next_cursor"] is None:
            return games
        params["cursor"] = page["next_cursor"]


def test_stats_equal_a_recount_after_many_concurrent_games(database_url: str) -> None:
    lines = winning_lines()
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    errors: list[str] = []
    created: dict[str, list[str]] = {name: [] for name in PLAYERS}
    lock = threading.Lock()
    # The scripted wins are the computer player's own lines, which the fair-play review flags
    # (the suite's operator clears them below); so many flags would mark these accounts and
    # hold all their wins, which is not what this test is about.
    marking = {"FOURSQUARE_FAIRPLAY_MARK_AFTER": "1000000"}
    with running_server(database_url, extra_env=marking) as server:
        keys: dict[str, str] = {}
        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            for name in PLAYERS:
                keys[name] = http.post("/players", json={"name": name}).json()["key"]
        ids = {}
        with database.reading() as connection:
            for name in PLAYERS:
                player = accounts_store.get_player_by_name_key(connection, name)
                assert player is not None
                ids[name] = player.id

        def place(http: httpx.Client, game_id: str, target: Any, secret: str) -> Any:
            response = http.post(
                f"/games/{game_id}/placements", json=target, headers=bearer(secret)
            )
            if response.status_code != 201:
                raise AssertionError(f"{response.status_code} {response.text}")
            return response.json()["game"]

        def scripted_win(http: httpx.Client, name: str, line: WinningLine) -> str:
            with database.transaction() as session:
                game_id = str(start_game(session, name, deck=line.deck, player_id=ids[name]).id)
            for row, col in line.positions:
                game = place(http, game_id, {"row": row, "col": col}, keys[name])
            assert game["status"] == "won" and game["score"] == line.score
            return game_id

        def random_game(http: httpx.Client, name: str, rng: random.Random, stop: int) -> str:
            response = http.post("/games", headers=bearer(keys[name]))
            assert response.status_code == 201, response.text
            game = response.json()
            # Placements alternate the player's key and the game's own token.
            secrets = (keys[name], game["token"])
            moves = 0
            while game["status"] == "in_progress" and moves < stop:
                game = place(
                    http, game["id"], rng.choice(game["legal_placements"]), secrets[moves % 2]
                )
                moves += 1
            game_id: str = game["id"]
            return game_id

        def client(number: int) -> None:
            name = PLAYERS[number % len(PLAYERS)]
            rng = random.Random(number)
            try:
                with httpx.Client(base_url=server.base_url, timeout=60) as http:
                    for _ in range(GAMES_PER_THREAD):
                        kind = rng.random()
                        if kind < 0.35:
                            game_id = scripted_win(http, name, rng.choice(lines))
                        elif kind < 0.85:
                            game_id = random_game(http, name, rng, stop=40)
                        else:
                            game_id = random_game(http, name, rng, stop=rng.randint(0, 3))
                        with lock:
                            created[name].append(game_id)
            except Exception as exc:  # reported below, with the thread's number
                errors.append(f"client {number}: {exc!r}")

        threads = [threading.Thread(target=client, args=(n,)) for n in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []

        with httpx.Client(base_url=server.base_url, timeout=60) as http:
            for name in PLAYERS:
                games = all_games(http, name)
                assert sorted(g["id"] for g in games) == sorted(created[name])
                stats = http.get(f"/players/{name}").json()["stats"]
                counted = recount(games)
                assert stats["games_played"] == THREADS // len(PLAYERS) * GAMES_PER_THREAD
                assert stats["games_won"] > 0 and stats["games_lost"] > 0
                # Timestamps compared as instants (the page and the stats may format alike
                # instants differently).
                for field in ("last_played_at",):
                    assert datetime.fromisoformat(stats.pop(field)) == datetime.fromisoformat(
                        counted.pop(field)
                    )
                assert stats == counted, name
            check_ranks_against_a_brute_force(http, [i for ids in created.values() for i in ids])
        # Every counter the concurrent wins kept agrees with a recount of them.
        assert leaderboard.counters_drift(database) == []
    database.dispose()


def check_ranks_against_a_brute_force(http: httpx.Client, game_ids: list[str]) -> None:
    """Wins recorded by concurrent clients are ranked as a sort of all of them ranks them:
    each win's ordinal was counted in finish order (tests/api/test_leaderboard_windows.py
    checks the boards themselves)."""
    # A win without hints has its rank once its fair-play review has put it on the boards;
    # the ranks are read once every win is on them (a win boarded later moves others' ranks).
    for game_id in game_ids:
        if http.get(f"/games/{game_id}").json()["status"] == "won":
            boarded(http, game_id, clear=True)
    games = [http.get(f"/games/{game_id}").json() for game_id in game_ids]
    won = sorted(
        (g for g in games if g["status"] == "won"),
        key=lambda g: (-g["score"], datetime.fromisoformat(g["finished_at"]), g["id"]),
    )
    assert len(won) > 20
    assert [g["rank"] for g in won] == list(range(1, len(won) + 1))
    finishes = [g["finished_at"] for g in won]
    assert len(set(finishes)) == len(finishes)
    middle = won[len(won) // 2]
    around = http.get(f"/leaderboard/around/{middle['id']}", params={"count": 3}).json()
    assert [e["game_id"] for e in around["entries"]] == [
        g["id"] for g in won[len(won) // 2 - 3 : len(won) // 2 + 4]
    ]
