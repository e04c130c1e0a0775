"""Games in play (api.in_play): a placement plans on the game as this process last stored it,
and anything refused on that copy is decided again on the game as stored, so a stale copy
(another process moved the game) never changes an answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from httpx import Response

from api import services
from api.app import create_app
from api.db import Database
from api.in_play import GamesInPlay
from api.repository import GameRecord
from api.settings import Settings
from engine import Game
from tests.conftest import CreatedGame, MakeGame

# A deck whose first placements are easy to follow: nothing flips until the row fills.
DECK = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S"] + [
    f"{rank}{suit}"
    for suit in "HDC"
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
]


def _stored(database: Database, game_id: str) -> tuple[int, int]:
    """The stored game's version and placement count."""
    with database.transaction(write=False) as session:
        loaded = services.load_game(session, game_id)
    return loaded.row.version, loaded.game.placements_count


@pytest.fixture
def other_client(settings: Settings) -> Iterator[TestClient]:
    """A second app instance on the same database: another server process, in effect."""
    with TestClient(create_app(settings), raise_server_exceptions=False) as other:
        yield other


def _in_play(app: FastAPI) -> GamesInPlay:
    games: GamesInPlay = app.state.database.in_play
    return games


def _place(client: TestClient, game: CreatedGame, row: int, col: int, **headers: str) -> Response:
    return client.post(
        f"/games/{game.id}/placements",
        json={"row": row, "col": col},
        headers=game.auth | {key.replace("_", "-"): value for key, value in headers.items()},
    )


# ---------------------------------------------------------------- the cache itself


def _game_record(version: int = 1) -> tuple[GameRecord, Game]:
    created = services.new_game("tester")
    return created.row._replace(version=version), created.game


def test_take_removes_the_game_so_no_two_requests_share_its_state() -> None:
    games = GamesInPlay(4)
    row, game = _game_record()
    games.put(row, game)
    kept = games.take(row.id)
    assert kept is not None and kept.row == row and kept.game is game
    assert games.take(row.id) is None
    assert len(games) == 0


def test_an_older_version_never_replaces_a_newer_one() -> None:
    games = GamesInPlay(4)
    row, game = _game_record(version=3)
    games.put(row, game)
    games.put(row._replace(version=2), Game(DECK))
    kept = games.take(row.id)
    assert kept is not None and kept.row.version == 3 and kept.game is game


def test_finished_games_are_not_kept_and_a_finish_forgets_the_game() -> None:
    games = GamesInPlay(4)
    row, game = _game_record()
    games.put(row, game)
    finished = Game.from_seed(7)
    while not finished.is_over:
        finished.place(finished.legal_placements()[0])
    games.put(row._replace(version=2), finished)
    assert games.take(row.id) is None


def test_the_least_recently_stored_game_goes_first_and_capacity_zero_keeps_none() -> None:
    games = GamesInPlay(2)
    records = [_game_record() for _ in range(3)]
    for row, game in records:
        games.put(row, game)
    assert len(games) == 2
    assert games.take(records[0][0].id) is None
    assert games.take(records[2][0].id) is not None
    games.discard(records[1][0].id)
    assert len(games) == 0

    none = GamesInPlay(0)
    none.put(*records[0])
    assert len(none) == 0


# ---------------------------------------------------------------- through the API


def test_created_and_placed_games_are_kept_and_finished_ones_are_not(
    client: TestClient, app: FastAPI
) -> None:
    created = client.post("/games").json()
    game = CreatedGame(created["id"], created["token"])
    assert len(_in_play(app)) == 1
    body = created
    while body["status"] == "in_progress":
        placement = body["legal_placements"][0]
        response = _place(client, game, placement["row"], placement["col"])
        assert response.status_code == 201, response.text
        body = response.json()["game"]
    assert len(_in_play(app)) == 0


def test_a_copy_made_stale_by_another_process_is_replaced_by_the_stored_game(
    client: TestClient, other_client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game(deck=DECK)
    assert _place(client, game, 0, 0).status_code == 201  # this process keeps version 2
    moved = _place(other_client, game, 0, 1)  # the other process moves the game to version 3
    assert moved.status_code == 201
    assert moved.json()["game"]["version"] == 3

    placed = _place(client, game, 0, 2)  # planned on version 2: refused, then planned on 3
    assert placed.status_code == 201, placed.text
    assert placed.json()["placement"]["number"] == 3
    assert placed.json()["placement"]["card"]["code"] == "3S"
    assert placed.json()["game"]["version"] == 4
    assert placed.headers["ETag"] == '"v4"'
    assert _stored(database, game.id) == (4, 3)
    history = client.get(f"/games/{game.id}/placements").json()["placements"]
    assert [(p["number"], p["col"], p["card"]["code"]) for p in history] == [
        (1, 0, "AS"),
        (2, 1, "2S"),
        (3, 2, "3S"),
    ]
    assert client.get(f"/games/{game.id}").json() == placed.json()["game"]


def test_if_match_is_judged_on_the_stored_game_not_on_a_stale_copy(
    client: TestClient, other_client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game(deck=DECK)
    assert _place(client, game, 0, 0).status_code == 201  # kept here at version 2
    assert _place(other_client, game, 0, 1).status_code == 201  # stored: version 3

    stale = _place(client, game, 0, 2, if_match='"v2"')  # matches the copy, not the game
    assert stale.status_code == 412, stale.text
    assert stale.headers["ETag"] == '"v3"'
    assert _stored(database, game.id) == (3, 2)

    current = _place(client, game, 0, 2, if_match='"v3"')  # matches the game, not the copy
    assert current.status_code == 201, current.text
    assert _stored(database, game.id) == (4, 3)


def test_a_game_finished_by_another_process_is_over_here_too(
    client: TestClient, other_client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game(deck=DECK)
    assert _place(client, game, 0, 0).status_code == 201
    body = other_client.get(f"/games/{game.id}").json()
    while body["status"] == "in_progress":
        placement = body["legal_placements"][0]
        response = _place(other_client, game, placement["row"], placement["col"])
        assert response.status_code == 201, response.text
        body = response.json()["game"]
    version, count = _stored(database, game.id)

    late = _place(client, game, 1, 1)  # this process's copy still has a card to place
    assert late.status_code == 409 and late.json()["code"] == "game_over", late.text
    assert _stored(database, game.id) == (version, count)


def test_refusals_on_a_kept_copy_are_the_refusals_of_the_stored_game(
    client: TestClient, app: FastAPI, database: Database, make_game: MakeGame
) -> None:
    game = make_game(deck=DECK)
    assert _place(client, game, 0, 0).status_code == 201
    wrong = CreatedGame(game.id, "not-the-token")
    assert _place(client, wrong, 0, 1).status_code == 403
    assert client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 1}).status_code == 401
    illegal = _place(client, game, 3, 3)
    assert illegal.status_code == 422 and illegal.json()["code"] == "not_adjacent", illegal.text
    assert _stored(database, game.id) == (2, 1)  # nothing stored by any of them
    assert _place(client, game, 0, 1).status_code == 201
    assert len(_in_play(app)) == 1


def test_a_hint_or_a_keyed_placement_leaves_no_stale_copy(
    client: TestClient, app: FastAPI, database: Database, make_game: MakeGame
) -> None:
    game = make_game(deck=DECK)
    assert _place(client, game, 0, 0).status_code == 201
    hint = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert hint.status_code == 200, hint.text
    assert len(_in_play(app)) == 0  # the hint bumped the version: the copy is gone

    assert _place(client, game, 0, 1).status_code == 201
    keyed = _place(client, game, 0, 2, idempotency_key="k-1")
    assert keyed.status_code == 201, keyed.text
    assert len(_in_play(app)) == 0

    placed = _place(client, game, 0, 3)
    assert placed.status_code == 201, placed.text
    assert placed.json()["game"]["assisted"] is True
    assert _stored(database, game.id) == (6, 4)
