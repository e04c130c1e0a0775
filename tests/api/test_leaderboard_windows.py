"""Leaderboard windows and standing: day and week boards, each player's best, a won game's
rank and its neighbours, all checked against a brute-force ranking of the same games."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.core.database import Database
from api.core.names import name_skeleton
from api.games.placing import finish_after
from testkit import clock as fake_clock
from tests.api.test_leaderboard import read_all_pages, record_win
from tests.conftest import MakeGame
from tests.integrity.players import WinningLine, winning_lines
from tests.support.fairplay import boarded

# A Sunday evening, so that the games below cross a day and an ISO week boundary.
SUNDAY = datetime(2026, 11, 29, 22, 0, tzinfo=UTC)
# "ANA" and "ana" are one player, and so are "eve" and "Eve" written in fullwidth letters.
NAMES = ("ana", "ANA", "bob", "Cy", "eve", "\uff25ve", "fay")


class Won:
    """A won game as the brute force sees it."""

    def __init__(
        self, game_id: str, player: str, score: int, finished_at: datetime, assisted: bool
    ) -> None:
        self.id, self.player, self.score = game_id, player, score
        self.finished_at, self.assisted = finished_at, assisted
        self.day = finished_at.date()
        self.week = self.day - timedelta(days=self.day.weekday())

    def key(self) -> tuple[int, datetime, uuid.UUID]:
        return (-self.score, self.finished_at, uuid.UUID(self.id))


def brute_board(
    games: list[Won], period: str, starts_on: date | None, per_player: bool, assisted: bool
) -> list[Won]:
    """The board by definition: filter, sort, keep each player's first (best) entry."""
    chosen = [
        game
        for game in games
        if (assisted or not game.assisted)
        and (
            period == "all"
            or (period == "day" and game.day == starts_on)
            or (period == "week" and game.week == starts_on)
        )
    ]
    chosen.sort(key=Won.key)
    if per_player:
        seen: set[str] = set()
        best = []
        for game in chosen:
            if name_skeleton(game.player) not in seen:
                seen.add(name_skeleton(game.player))
                best.append(game)
        chosen = best
    return chosen


@pytest.fixture
def many_wins(database: Database) -> list[Won]:
    """~150 wins by seven players (two names one player), ties on score, a fifth assisted,
    finishing in order over eight days around a week's end, some a microsecond apart."""
    rng = random.Random(2026)
    games: list[Won] = []
    moment = SUNDAY - timedelta(days=2)
    for _ in range(150):
        moment += rng.choice([timedelta(microseconds=1), timedelta(minutes=7), timedelta(hours=2)])
        score = rng.choice([0, 3, 3, 7, 7, 7, 12, 19, 24])
        player = rng.choice(NAMES)
        assisted = rng.random() < 0.2
        game_id = record_win(database, score, moment, player, assisted=assisted)
        games.append(Won(game_id, player, score, moment, assisted))
    assert len({game.week for game in games}) == 2 and len({game.day for game in games}) >= 5
    return games


def boards(games: list[Won]) -> Iterator[tuple[str, date | None, bool, bool]]:
    days = sorted({game.day for game in games})
    weeks = sorted({game.week for game in games})
    windows = [("all", None)] + [("day", d) for d in days] + [("week", w) for w in weeks]
    for period, starts_on in windows:
        for per_player in (False, True):
            for assisted in (False, True):
                yield period, starts_on, per_player, assisted


def query(period: str, starts_on: date | None, per_player: bool, assisted: bool) -> dict[str, str]:
    params = {"period": period, "include_assisted": str(assisted).lower()}
    if starts_on is not None:
        # Any day of the window names it: take its last day for a week.
        named = starts_on + timedelta(days=6 if period == "week" else 0)
        params["date"] = named.isoformat()
    if per_player:
        params["per_player"] = "best"
    return params


def test_every_board_pages_as_the_brute_force_ranks(
    client: TestClient, many_wins: list[Won]
) -> None:
    with fake_clock.frozen(SUNDAY + timedelta(days=30)):
        for period, starts_on, per_player, assisted in boards(many_wins):
            params = query(period, starts_on, per_player, assisted)
            expected = brute_board(many_wins, period, starts_on, per_player, assisted)
            entries = read_all_pages(client, limit=7, params=params)
            assert [e["game_id"] for e in entries] == [g.id for g in expected], params
            assert [e["rank"] for e in entries] == list(range(1, len(expected) + 1))
            first = client.get("/leaderboard", params=params | {"limit": 1}).json()
            ends_on = None
            if starts_on is not None:
                ends_on = starts_on + timedelta(days=6 if period == "week" else 0)
            assert (first["period"], first["starts_on"], first["ends_on"]) == (
                period,
                starts_on and starts_on.isoformat(),
                ends_on and ends_on.isoformat(),
            )
            assert first["per_player"] == ("best" if per_player else None)


def test_around_gives_every_game_its_brute_force_rank_and_neighbours(
    client: TestClient, many_wins: list[Won]
) -> None:
    rng = random.Random(5)
    for game in many_wins:
        for period in ("all", "day", "week"):
            per_player = rng.random() < 0.5
            assisted = rng.random() < 0.5
            starts_on = {"all": None, "day": game.day, "week": game.week}[period]
            board = brute_board(many_wins, period, starts_on, per_player, assisted)
            params = {"period": period, "include_assisted": str(assisted).lower(), "count": 2}
            if per_player:
                params["per_player"] = "best"
            response = client.get(f"/leaderboard/around/{game.id}", params=params)
            if game not in board:
                assert response.status_code == 409, (params, response.text)
                assert response.json()["code"] == "not_on_board"
                continue
            assert response.status_code == 200, response.text
            found = response.json()
            assert list(found) == [
                "game_id",
                "rank",
                "size",
                "entries",
                "period",
                "starts_on",
                "ends_on",
                "per_player",
            ]
            place = board.index(game)
            assert found["rank"] == place + 1, params
            assert found["size"] == len(board), params
            window = board[max(0, place - 2) : place + 3]
            assert [e["game_id"] for e in found["entries"]] == [g.id for g in window]
            assert [e["rank"] for e in found["entries"]] == [board.index(g) + 1 for g in window]
            assert found["starts_on"] == (starts_on and starts_on.isoformat())


def test_per_player_best_keeps_the_earlier_of_equal_bests(
    client: TestClient, database: Database
) -> None:
    first = record_win(database, 10, SUNDAY, "ana")
    record_win(database, 10, SUNDAY + timedelta(minutes=1), "ANA")  # the same player
    record_win(database, 4, SUNDAY + timedelta(minutes=2), "ana")
    bob = record_win(database, 9, SUNDAY + timedelta(minutes=3), "bob")
    page = client.get("/leaderboard", params={"per_player": "best"}).json()
    assert [(e["game_id"], e["rank"]) for e in page["entries"]] == [(first, 1), (bob, 2)]
    better = record_win(database, 11, SUNDAY + timedelta(minutes=4), "Ana")
    page = client.get("/leaderboard", params={"per_player": "best"}).json()
    assert [e["game_id"] for e in page["entries"]] == [better, bob]


def win(client: TestClient, make_game: MakeGame, line: WinningLine, player: str) -> dict[str, Any]:
    """Play a winning line through the API; the last placement's answer."""
    game = make_game(deck=line.deck, player=player)
    body: dict[str, Any] = {}
    for row, col in line.positions:
        response = client.post(
            f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
        )
        assert response.status_code == 201, response.text
        body = response.json()
    assert body["game"]["status"] == "won"
    # On the boards once the fair-play review has found it clean (conformance lines are).
    body["game"] = boarded(client, game.id)
    return body


def lines_by_score() -> dict[int, list[WinningLine]]:
    found: dict[int, list[WinningLine]] = {}
    for line in winning_lines():
        found.setdefault(line.score, []).append(line)
    return found


def test_day_and_week_boards_turn_at_utc_midnight_and_on_monday(
    client: TestClient, make_game: MakeGame
) -> None:
    lines = [group[0] for _, group in sorted(lines_by_score().items())][:3]
    with fake_clock.frozen(datetime(2026, 11, 29, 23, 59, 59, 999_999, tzinfo=UTC)) as now:
        sunday = win(client, make_game, lines[0], "ana")["game"]["id"]
        now.advance(microseconds=1)  # Monday 2026-11-30 00:00 UTC: a new day and week
        monday = win(client, make_game, lines[1], "bob")["game"]["id"]

        def ids(**params: str) -> list[str]:
            page = client.get("/leaderboard", params=params).json()
            return [entry["game_id"] for entry in page["entries"]]

        assert ids(period="day") == [monday]  # today
        assert ids(period="week") == [monday]
        assert ids(period="day", date="2026-11-29") == [sunday]
        assert ids(period="week", date="2026-11-23") == [sunday]  # that week's Monday
        assert ids(period="week", date="2026-11-28") == [sunday]  # a Saturday
        assert ids(period="week", date="2026-11-30") == [monday]
        assert set(ids()) == {sunday, monday}
        week = client.get("/leaderboard", params={"period": "week"}).json()
        assert (week["starts_on"], week["ends_on"]) == ("2026-11-30", "2026-12-06")
        around = client.get(f"/leaderboard/around/{sunday}", params={"period": "week"}).json()
        assert around["starts_on"] == "2026-11-23" and around["rank"] == 1


def test_a_won_game_carries_its_rank_which_moves_with_its_etag(
    client: TestClient, make_game: MakeGame
) -> None:
    by_score = lines_by_score()
    low, high = min(by_score), max(by_score)
    placed = win(client, make_game, by_score[low][0], "ana")
    game_id = placed["game"]["id"]
    assert placed["game"]["rank"] == 1
    read = client.get(f"/games/{game_id}")
    assert read.json()["rank"] == 1
    etag = read.headers["etag"]
    assert etag.endswith('.r1.clean"') and read.headers["cache-control"] == "no-cache"
    assert client.get(f"/games/{game_id}", headers={"If-None-Match": etag}).status_code == 304

    better = win(client, make_game, by_score[high][0], "bob")
    assert better["game"]["rank"] == 1
    read = client.get(f"/games/{game_id}")
    assert read.json()["rank"] == 2 and read.headers["etag"].endswith('.r2.clean"')
    assert client.get(f"/games/{game_id}", headers={"If-None-Match": etag}).status_code == 200
    fresh = client.post("/games", json={"player": "cyd"}).json()
    assert fresh["rank"] is None
    assert client.get(f"/games/{fresh['id']}").json()["rank"] is None


def test_wins_at_one_instant_finish_a_microsecond_apart_in_the_order_counted(
    client: TestClient, make_game: MakeGame
) -> None:
    same = next(group for group in lines_by_score().values() if len(group) >= 2)
    with fake_clock.frozen(SUNDAY):
        first = win(client, make_game, same[0], "ana")["game"]
        second = win(client, make_game, same[1], "bob")["game"]
    # Both ended at that instant; the review boards them one at a time, and the later counted
    # is stamped a microsecond after the earlier on every board.
    assert first["finished_at"] == second["finished_at"]
    entries = client.get("/leaderboard").json()["entries"]
    assert {e["game_id"] for e in entries} == {first["id"], second["id"]}
    earlier, later = (datetime.fromisoformat(e["finished_at"]) for e in entries)
    assert later - earlier == timedelta(microseconds=1)
    assert [e["rank"] for e in entries] == [1, 2]


def test_finish_after_never_goes_back_before_the_last_win() -> None:
    last = datetime(2026, 11, 30, 12, tzinfo=UTC)
    with fake_clock.frozen(last - timedelta(seconds=5)):
        assert finish_after(last) == last + timedelta(microseconds=1)
    with fake_clock.frozen(last + timedelta(seconds=5)):
        assert finish_after(last) == last + timedelta(seconds=5)
        assert finish_after(None) == last + timedelta(seconds=5)


@pytest.mark.parametrize(
    ("params", "code"),
    [
        ({"date": "2026-11-29"}, "invalid_window"),  # a date on the all-time board
        ({"period": "day", "date": "2026-12-02"}, "invalid_window"),  # after today
        ({"challenge": "2026-11-29", "period": "week"}, "invalid_window"),
        ({"challenge": "2026-11-29", "per_player": "best"}, "invalid_window"),
        ({"period": "month"}, "invalid_request"),
        ({"period": "day", "date": "2026-02-30"}, "invalid_request"),  # no such day: never
        ({"period": "week", "date": "2026-13-45"}, "invalid_request"),  # "after today"
        ({"per_player": "worst"}, "invalid_request"),
    ],
)
def test_impossible_windows_are_422(client: TestClient, params: dict[str, str], code: str) -> None:
    with fake_clock.frozen(datetime(2026, 12, 1, 12, tzinfo=UTC)):
        response = client.get("/leaderboard", params=params)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code
    assert response.headers["content-type"] == "application/problem+json"


def test_a_cursor_belongs_to_its_window(client: TestClient, database: Database) -> None:
    for minute in range(4):
        record_win(database, minute, SUNDAY + timedelta(minutes=minute))
    with fake_clock.frozen(SUNDAY + timedelta(hours=1)):
        cursor = client.get("/leaderboard", params={"period": "day", "limit": 1}).json()
        for other in (
            {"period": "week"},
            {"period": "day", "date": "2026-11-28"},
            {"period": "day", "per_player": "best"},
            {},
        ):
            response = client.get(
                "/leaderboard", params=other | {"limit": 1, "cursor": cursor["next_cursor"]}
            )
            assert response.json()["code"] == "invalid_cursor", other
        following = client.get(
            "/leaderboard", params={"period": "day", "limit": 1, "cursor": cursor["next_cursor"]}
        ).json()
        assert following["entries"][0]["rank"] == 2


def test_around_refuses_games_not_on_the_board(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    assisted = record_win(database, 9, SUNDAY, "ana", assisted=True)
    worse = record_win(database, 2, SUNDAY + timedelta(minutes=1), "ana")
    playing = make_game()
    cases = [
        (assisted, {}, "its player asked for hints"),
        (worse, {"per_player": "best", "include_assisted": "true"}, "not its player's best"),
        (playing.id, {}, "in progress"),
    ]
    for game_id, params, why in cases:
        response = client.get(f"/leaderboard/around/{game_id}", params=params)
        assert response.status_code == 409
        assert response.json()["code"] == "not_on_board" and why in response.json()["detail"]
    assert client.get(f"/leaderboard/around/{assisted}?include_assisted=true").json()["rank"] == 1
    assert client.get(f"/leaderboard/around/{worse}").json()["rank"] == 1
    for unknown in (str(uuid.uuid4()), "not-a-uuid"):
        response = client.get(f"/leaderboard/around/{unknown}")
        assert response.status_code == 404 and response.json()["code"] == "game_not_found"
    for bad in ({"count": 51}, {"count": -1}, {"period": "year"}):
        response = client.get(f"/leaderboard/around/{worse}", params=bad)
        assert response.status_code == 422 and response.json()["code"] == "invalid_request"
