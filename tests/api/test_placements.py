"""Placing cards through HTTP: whole games, every error, and that errors change nothing."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.api.conformance import lost_vectors, play_vector
from tests.conftest import CreatedGame, MakeGame

ALL_CODES = [f"{rank}{suit}" for rank in ["A", *map(str, range(2, 11))] for suit in "CDHS"]
HEAD = ["9S", "10C", "AS", "5S", "6C", "4H", "3S", "2H", "6D"]
EXAMPLE_DECK = HEAD + [code for code in ALL_CODES if code not in HEAD]


def place(client: TestClient, game: CreatedGame, row: int, col: int, **headers: str) -> Any:
    return client.post(
        f"/games/{game.id}/placements",
        json={"row": row, "col": col},
        headers={**game.auth, **headers},
    )


def snapshot(client: TestClient, game: CreatedGame) -> tuple[Any, Any]:
    return client.get(f"/games/{game.id}").json(), client.get(f"/games/{game.id}/placements").json()


@pytest.mark.parametrize(
    "vector",
    lost_vectors(4),
    ids=lambda v: f"{v['final']['end_reason']}-{v['deck'][0]}{v['deck'][1]}",
)
def test_lost_conformance_game_plays_identically_through_http(
    client: TestClient, make_game: MakeGame, vector: dict[str, Any]
) -> None:
    # The won games are played the same way, all in one database, in test_leaderboard.py.
    play_vector(client, make_game(vector["deck"], player="vector"), vector)


def test_each_flip_is_reported_with_the_side_it_now_shows(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game(EXAMPLE_DECK)
    flips_seen = 0
    for row, col in [(0, 0), (0, 1), (1, 1), (1, 2), (1, 3), (2, 2), (2, 3), (2, 1)]:
        before = {
            (p["row"], p["col"]): p["face_up"]
            for p in client.get(f"/games/{game.id}").json()["piles"]
        }
        response = place(client, game, row, col)
        assert response.status_code == 201, response.text
        body = response.json()
        after = {(p["row"], p["col"]): p["face_up"] for p in body["game"]["piles"]}
        flipped = {(f["row"], f["col"]): f["face_up"] for f in body["placement"]["flipped"]}
        assert after[(row, col)] is True
        for position, face_up in after.items():
            if position in flipped:
                assert face_up == flipped[position] == (not before[position])
            elif position != (row, col):
                assert face_up == before[position]
        flips_seen += len(flipped)
    assert flips_seen >= 4


def test_error_responses_follow_rfc_9457(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    response = place(client, game, 1, 1)
    assert response.status_code == 422
    assert response.headers["content-type"] == "application/problem+json"
    problem = response.json()
    assert problem == {
        "type": "urn:foursquare:problem:not_origin",
        "title": "Illegal placement",
        "status": 422,
        "detail": "(1, 1) is not (0, 0): the first card goes at (0, 0)",
        "code": "not_origin",
        "instance": f"/games/{game.id}/placements",
        "request_id": response.headers["x-request-id"],
    }


def _play(client: TestClient, game: CreatedGame, moves: list[tuple[int, int]]) -> None:
    for row, col in moves:
        response = place(client, game, row, col)
        assert response.status_code == 201, response.text


@pytest.mark.parametrize(
    ("moves", "target", "code"),
    [
        ([], (0, 1), "not_origin"),
        ([(0, 0)], (2, 0), "not_adjacent"),
        ([(0, 0)], (1, 1), "not_adjacent"),
        ([(0, 0), (0, 1), (0, 2), (0, 3)], (0, -1), "grid_too_large"),
        ([(0, 0), (1, 0), (2, 0), (3, 0)], (-1, 0), "grid_too_large"),
        ([(0, 0), (0, 0), (0, 0), (0, 0)], (0, 0), "pile_full"),
    ],
)
def test_placements_the_rules_forbid_are_422_with_their_code_and_change_nothing(
    client: TestClient,
    make_game: MakeGame,
    moves: list[tuple[int, int]],
    target: tuple[int, int],
    code: str,
) -> None:
    game = make_game(EXAMPLE_DECK)
    _play(client, game, moves)
    before = snapshot(client, game)
    response = place(client, game, *target)
    assert response.status_code == 422, response.text
    problem = response.json()
    assert problem["code"] == code
    assert f"({target[0]}, {target[1]})" in problem["detail"]
    assert snapshot(client, game) == before


def test_placement_on_finished_game_is_409_game_over(
    client: TestClient, make_game: MakeGame
) -> None:
    vector = lost_vectors(2)[0]
    game = make_game(vector["deck"])
    _play(client, game, [(s["row"], s["col"]) for s in vector["steps"]])
    before = snapshot(client, game)
    response = place(client, game, 0, 0)
    assert response.status_code == 409
    assert response.json()["code"] == "game_over"
    assert snapshot(client, game) == before


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "missing_token"),
        ({"Authorization": "Bearer"}, 401, "missing_token"),
        ({"Authorization": "Basic YW5hOnB3"}, 401, "missing_token"),
        ({"Authorization": "Bearer not-the-token"}, 403, "invalid_token"),
    ],
)
def test_placements_need_the_games_token(
    client: TestClient, make_game: MakeGame, headers: dict[str, str], status: int, code: str
) -> None:
    game = make_game()
    before = snapshot(client, game)
    response = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers
    )
    assert response.status_code == status
    assert response.json()["code"] == code
    if status == 401:
        assert response.headers["www-authenticate"].startswith("Bearer")
    assert snapshot(client, game) == before


def test_a_games_token_does_not_authorise_another_game(
    client: TestClient, make_game: MakeGame
) -> None:
    mine, theirs = make_game(), make_game()
    response = client.post(
        f"/games/{theirs.id}/placements", json={"row": 0, "col": 0}, headers=mine.auth
    )
    assert response.status_code == 403
    assert response.json()["code"] == "invalid_token"


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        ({"row": 0}, [["body", "col"]]),
        ({}, [["body", "row"], ["body", "col"]]),
        ({"row": "0", "col": 0}, [["body", "row"]]),
        ({"row": 0.5, "col": 0}, [["body", "row"]]),
        ({"row": True, "col": 0}, [["body", "row"]]),
        ({"row": 0, "col": 4}, [["body", "col"]]),
        ({"row": -4, "col": 0}, [["body", "row"]]),
        ({"row": 10**30, "col": 0}, [["body", "row"]]),
        ({"row": 0, "col": 0, "card": "AS"}, [["body", "card"]]),
        ([0, 0], [["body"]]),
    ],
)
def test_malformed_placements_are_invalid_requests_listing_the_fields(
    client: TestClient, make_game: MakeGame, body: object, fields: list[list[str]]
) -> None:
    game = make_game()
    before = snapshot(client, game)
    response = client.post(f"/games/{game.id}/placements", json=body, headers=game.auth)
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "invalid_request"
    assert [error["loc"] for error in problem["errors"]] == fields
    assert snapshot(client, game) == before


def test_placement_on_unknown_game_is_404(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    response = client.post(
        "/games/00000000-0000-0000-0000-000000000000/placements",
        json={"row": 0, "col": 0},
        headers=game.auth,
    )
    assert response.status_code == 404
    assert response.json()["code"] == "game_not_found"


def test_history_lists_placements_in_order(client: TestClient, make_game: MakeGame) -> None:
    game = make_game(EXAMPLE_DECK)
    assert client.get(f"/games/{game.id}/placements").json() == {
        "game_id": game.id,
        "placements": [],
    }
    _play(client, game, [(0, 0), (0, 1), (1, 1)])
    history = client.get(f"/games/{game.id}/placements").json()["placements"]
    assert [(p["number"], p["row"], p["col"], p["card"]["code"]) for p in history] == [
        (1, 0, 0, "9S"),
        (2, 0, 1, "10C"),
        (3, 1, 1, "AS"),
    ]
    assert history[1]["flipped"] == [{"row": 0, "col": 0, "face_up": False}]
    assert all(p["status_after"] == "in_progress" and p["created_at"] for p in history)
