"""ETags, If-Match and If-None-Match on games."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.conftest import CreatedGame, MakeGame


def place(client: TestClient, game: CreatedGame, **headers: str) -> object:
    return client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers={**game.auth, **headers}
    )


def test_game_responses_carry_a_strong_etag_of_the_version(
    client: TestClient, make_game: MakeGame
) -> None:
    created = client.post("/games")
    assert created.headers["etag"] == '"v1"'
    game = make_game()
    read = client.get(f"/games/{game.id}")
    assert read.headers["etag"] == f'"v{read.json()["version"]}"' == '"v1"'
    placed = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth
    )
    assert placed.headers["etag"] == '"v2"'
    assert client.get(f"/games/{game.id}").headers["etag"] == '"v2"'


@pytest.mark.parametrize("header", ['"v1"', 'W/"v1"', '"v9", "v1"', "*"])
def test_if_none_match_with_the_current_etag_is_304(
    client: TestClient, make_game: MakeGame, header: str
) -> None:
    game = make_game()
    response = client.get(f"/games/{game.id}", headers={"If-None-Match": header})
    assert response.status_code == 304
    assert response.content == b""
    assert response.headers["etag"] == '"v1"'


def test_if_none_match_with_an_old_etag_returns_the_game(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    response = client.get(f"/games/{game.id}", headers={"If-None-Match": '"v1"'})
    assert response.status_code == 200
    assert response.json()["version"] == 2


@pytest.mark.parametrize("header", ['"v1"', "*", '"v7", "v1"'])
def test_if_match_with_the_current_etag_places_the_card(
    client: TestClient, make_game: MakeGame, header: str
) -> None:
    game = make_game()
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "If-Match": header},
    )
    assert response.status_code == 201


@pytest.mark.parametrize("header", ['"v2"', 'W/"v1"', "v1", '"1"'])
def test_if_match_with_another_etag_is_412_and_changes_nothing(
    client: TestClient, make_game: MakeGame, header: str
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}").json()
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "If-Match": header},
    )
    assert response.status_code == 412
    problem = response.json()
    assert problem["code"] == "precondition_failed"
    assert problem["current_version"] == 1
    assert response.headers["etag"] == '"v1"'
    assert client.get(f"/games/{game.id}").json() == before


def test_two_clients_with_the_same_etag_only_one_places(
    client: TestClient, make_game: MakeGame
) -> None:
    game = make_game()
    etag = client.get(f"/games/{game.id}").headers["etag"]
    first = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "If-Match": etag},
    )
    second = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "If-Match": etag},
    )
    assert (first.status_code, second.status_code) == (201, 412)
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 1


def test_if_match_is_checked_after_the_token(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    response = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers={"If-Match": '"v9"'}
    )
    assert response.status_code == 401
