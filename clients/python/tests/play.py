"""The generated client against a real server (FOURSQUARE_URL), through the behaviour the API
keeps: a game played to its end with If-Match and Idempotency-Key, its history, its ETag and
its event stream resumed with Last-Event-ID, problem+json errors, the leaderboard, an account playing with its key, and a race with the
computer. tests/clients/test_python_client.py runs it in a fresh virtualenv that holds only the
installed client, and checks it with mypy --strict.
"""

from __future__ import annotations

import os
import random
import uuid
from http import HTTPStatus
from typing import TypeVar

from httpx_sse import connect_sse

from foursquare_client import AuthenticatedClient, Client
from foursquare_client.api.games import create_game, list_placements, place_card, read_game
from foursquare_client.api.leaderboard import around, read_leaderboard
from foursquare_client.api.players import create_player, list_player_games, read_own_player
from foursquare_client.api.races import join_race, open_race, read_race
from foursquare_client.models import (
    GameCreate,
    GameCreated,
    GameEndEvent,
    GameOut,
    PlacementIn,
    PlacementOut,
    PlayerCreate,
    Problem,
    RaceCreate,
    RacerIn,
)
from foursquare_client.types import Response

URL = os.environ["FOURSQUARE_URL"]
T = TypeVar("T")


def ok(answer: T | Problem | None) -> T:
    assert answer is not None and not isinstance(answer, Problem), answer
    return answer


def problem(response: Response[T | Problem], status: int, code: str) -> Problem:
    """The problem+json answer the response must be."""
    assert response.status_code == status, (response.status_code, response.content)
    assert response.headers["content-type"] == "application/problem+json"
    assert isinstance(response.parsed, Problem), response.parsed
    assert response.parsed.code == code and response.parsed.status == status
    return response.parsed


def play(client: AuthenticatedClient, start: GameCreated, rng: random.Random) -> GameOut:
    """Each placement sent twice under one Idempotency-Key (a retry after a lost answer) and
    with the If-Match of the game it saw: the retry replays the first answer."""
    game: GameCreated | GameOut = start
    while game.status == "in_progress":
        cell = rng.choice(game.legal_placements)
        body = PlacementIn(row=cell.row, col=cell.col)
        key, version = str(uuid.uuid4()), f'"v{game.version}"'
        sent = place_card.sync_detailed(str(game.id), client=client, body=body, if_match=version, idempotency_key=key)
        again = place_card.sync_detailed(str(game.id), client=client, body=body, if_match=version, idempotency_key=key)
        assert sent.status_code == again.status_code == HTTPStatus.CREATED, sent.content
        assert again.headers["idempotent-replayed"] == "true" and again.content == sent.content
        placed = ok(sent.parsed)
        assert (placed.placement.row, placed.placement.col) == (cell.row, cell.col)
        assert placed.game.placements_count == placed.placement.number == game.placements_count + 1
        # The version it was sent with is gone: If-Match on it is refused, and changes nothing.
        stale = place_card.sync_detailed(str(game.id), client=client, body=body, if_match=version)
        if placed.game.status == "in_progress":
            assert problem(stale, 412, "precondition_failed").current_version == placed.game.version
        game = placed.game
    assert isinstance(game, GameOut)
    return game


def main() -> None:
    rng = random.Random(int(os.environ.get("SEED", "7")))
    anyone = Client(base_url=URL)

    # A guest's game, created once under an Idempotency-Key (a UUID) and replayed.
    key = str(uuid.uuid4())
    first = create_game.sync_detailed(client=anyone, body=GameCreate(player="guest-py"), idempotency_key=key)
    replay = create_game.sync_detailed(client=anyone, body=GameCreate(player="guest-py"), idempotency_key=key)
    created = ok(first.parsed)
    assert first.status_code == HTTPStatus.CREATED and first.headers["location"] == f"/games/{created.id}"
    assert ok(replay.parsed).id == created.id and replay.headers["idempotent-replayed"] == "true"
    assert created.player == "guest-py" and created.stock_count == 39

    as_guest = AuthenticatedClient(base_url=URL, token=created.token)
    game = play(as_guest, created, rng)
    assert game.status in ("won", "lost") and game.reveal is not None
    assert (game.score is not None) == (game.status == "won")

    # Read by anyone: the game, revalidated with its ETag, and its history.
    read = read_game.sync_detailed(str(game.id), client=anyone)
    assert (ok(read.parsed).id, ok(read.parsed).status) == (game.id, game.status)
    unchanged = read_game.sync_detailed(str(game.id), client=anyone, if_none_match=read.headers["etag"])
    assert unchanged.status_code == HTTPStatus.NOT_MODIFIED
    history = ok(list_placements.sync(str(game.id), client=anyone)).placements
    assert [p.number for p in history] == list(range(1, game.placements_count + 1))
    assert history[-1].status_after == game.status

    # Its event stream, resumed after Last-Event-ID (httpx-sse reads it over the client's httpx
    # client): the placements after that one, each as the history lists it, then its end.
    after = game.placements_count - 2
    url, resume = f"/games/{game.id}/events", {"Last-Event-ID": str(after)}
    with connect_sse(anyone.get_httpx_client(), "GET", url, headers=resume) as source:
        events = [(sse.event, sse.id, sse.json()) for sse in source.iter_sse()]
    assert [(name, number) for name, number, _ in events[:2]] == [
        ("placement", str(after + 1)),
        ("placement", str(after + 2)),
    ]
    assert [PlacementOut.from_dict(data) for _, _, data in events[:2]] == history[after:]
    assert [name for name, _, _ in events[2:]] == ["end"]
    end = GameEndEvent.from_dict(events[2][2])
    assert (end.status, end.placements) == (game.status, game.placements_count)

    # A finished game takes no more cards; a bad credential is refused; both as problem+json.
    cell = PlacementIn(row=0, col=0)
    problem(place_card.sync_detailed(str(game.id), client=as_guest, body=cell), 409, "game_over")
    wrong = AuthenticatedClient(base_url=URL, token="not-a-token")
    problem(place_card.sync_detailed(str(game.id), client=wrong, body=cell), 403, "invalid_token")

    # The leaderboard lists the game if it was won, and knows its place on the board.
    board = ok(read_leaderboard.sync(client=anyone, limit=100))
    assert (game.id in {entry.game_id for entry in board.entries}) == (game.status == "won")
    place = around.sync_detailed(str(game.id), client=anyone, count=2)
    if game.status == "lost":
        problem(place, 409, "not_on_board")
    else:
        assert ok(place.parsed).game_id == game.id

    # An account: its key names it, starts its games and authorises their placements.
    name = f"py-{uuid.uuid4().hex[:12]}"
    account = ok(create_player.sync(client=anyone, body=PlayerCreate(name=name)))
    as_account = AuthenticatedClient(base_url=URL, token=account.key)
    assert ok(read_own_player.sync(client=as_account)).name == name
    mine = play(as_account, ok(create_game.sync(client=as_account, body=None)), rng)
    assert mine.player == name
    games = ok(list_player_games.sync(name, client=anyone)).games
    assert [(g.id, g.status) for g in games] == [(mine.id, mine.status)]
    problem(create_player.sync_detailed(client=anyone, body=PlayerCreate(name=name.upper())), 409, "name_taken")

    # A race with the computer, opened by the account: full at two, so it counts down.
    opened = ok(open_race.sync(client=as_account, body=RaceCreate(computer=True, seats=2, time_limit=60)))
    assert opened.you == 1 and [r.name for r in opened.racers] == [name, "computer"]
    race = ok(read_race.sync(str(opened.id), client=as_account))
    assert race.id == opened.id and race.you == 1 and race.status in ("countdown", "running")
    assert ok(read_race.sync(str(opened.id), client=anyone)).you is None
    full = join_race.sync_detailed(str(opened.id), client=anyone, body=RacerIn(player="late-py"))
    problem(full, 409, "race_not_open")
    print(f"played {game.status} and {mine.status}; race {race.status}")


if __name__ == "__main__":
    main()
