"""Creating and reading games through HTTP."""

from __future__ import annotations

import uuid

import pytest
from fastapi.testclient import TestClient

from tests.conftest import MakeGame

GAME_FIELDS = {
    "id",
    "player",
    "status",
    "end_reason",
    "score",
    "current_card",
    "stock_count",
    "face_down_count",
    "placements_count",
    "piles",
    "legal_placements",
    "created_at",
    "updated_at",
    "finished_at",
}


def test_create_game_answers_201_with_location_token_and_fresh_game(client: TestClient) -> None:
    response = client.post("/games", json={"player": "ana"})
    assert response.status_code == 201
    game = response.json()
    assert game.keys() >= GAME_FIELDS
    assert response.headers["location"] == f"/games/{game['id']}"
    assert uuid.UUID(game["id"])
    assert len(game["token"]) >= 40
    assert game["player"] == "ana"
    assert game["status"] == "in_progress"
    assert game["end_reason"] is None and game["score"] is None and game["finished_at"] is None
    assert game["stock_count"] == 39
    assert game["placements_count"] == 0 and game["face_down_count"] == 0
    assert game["piles"] == []
    assert game["legal_placements"] == [{"row": 0, "col": 0}]
    card = game["current_card"]
    assert set(card) == {"rank", "suit", "code"}
    assert 1 <= card["rank"] <= 10 and card["suit"] in {"clubs", "diamonds", "hearts", "spades"}


def test_created_game_can_be_read_by_anyone_without_its_token(client: TestClient) -> None:
    created = client.post("/games").json()
    response = client.get(f"/games/{created['id']}")
    assert response.status_code == 200
    read = response.json()
    assert "token" not in read
    assert read == {key: value for key, value in created.items() if key != "token"}


def test_each_game_is_dealt_from_its_own_secret_seed(client: TestClient) -> None:
    first_cards = {client.post("/games").json()["current_card"]["code"] for _ in range(12)}
    assert len(first_cards) > 1


@pytest.mark.parametrize(
    ("body", "player"),
    [
        (None, "anonymous"),
        ({}, "anonymous"),
        ({"player": "ana"}, "ana"),
        ({"player": "x" * 24}, "x" * 24),
        ({"player": "Zo-e_9"}, "Zo-e_9"),
    ],
)
def test_player_name_is_kept_and_defaults_to_anonymous(
    client: TestClient, body: dict[str, str] | None, player: str
) -> None:
    response = client.post("/games", json=body) if body is not None else client.post("/games")
    assert response.status_code == 201
    assert response.json()["player"] == player


@pytest.mark.parametrize(
    "player", ["", "   ", "x" * 25, "ab", "  ana  ", "Zoë 🃏", "bad\nname", "nul\x00"]
)
def test_names_outside_the_rule_are_refused_as_an_accounts(client: TestClient, player: str) -> None:
    response = client.post("/games", json={"player": player})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == "invalid_player_name"
    assert "is not a valid player name: a name is 3 to 24 ASCII letters" in problem["detail"]


@pytest.mark.parametrize(
    "body",
    [
        {"player": 42},
        {"player": None},
        {"player": "ana", "deck": ["AS"]},
        {"seed": 1},
        ["ana"],
    ],
)
def test_bad_create_bodies_are_refused_as_invalid_request(client: TestClient, body: object) -> None:
    response = client.post("/games", json=body)
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    problem = response.json()
    assert problem["code"] == "invalid_request"
    assert problem["errors"], problem


def test_malformed_json_is_an_invalid_request(client: TestClient) -> None:
    response = client.post(
        "/games", content=b'{"player": ', headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"


# A well-formed id of no game is a fixed one: a value made at import time would name the
# test differently in each pytest-xdist worker, and they must collect the same tests.
@pytest.mark.parametrize(
    "game_id", ["nope", "123", "6f1c0d5e-8b7a-4c2e-9d3f-2a1b0c9d8e7f", "' OR 1=1 --"]
)
def test_unknown_or_malformed_game_ids_are_not_found(client: TestClient, game_id: str) -> None:
    for path in (f"/games/{game_id}", f"/games/{game_id}/placements"):
        response = client.get(path)
        assert response.status_code == 404, path
        problem = response.json()
        assert problem["code"] == "game_not_found"
        assert problem["type"] == "urn:foursquare:problem:game_not_found"
        assert problem["status"] == 404 and problem["title"] and problem["detail"]


def test_game_made_from_a_chosen_deck_starts_with_its_first_card(
    make_game: MakeGame, client: TestClient
) -> None:
    deck = ["6D", *[c for c in _all_codes() if c != "6D"]]
    game = client.get(f"/games/{make_game(deck).id}").json()
    assert game["current_card"] == {"rank": 6, "suit": "diamonds", "code": "6D"}


def test_unknown_routes_and_methods_are_problems(client: TestClient) -> None:
    missing = client.get("/nowhere")
    assert missing.status_code == 404
    assert missing.headers["content-type"].startswith("application/problem+json")
    wrong = client.delete("/games")
    assert wrong.status_code == 405
    assert wrong.json()["code"] == "method_not_allowed"


def test_health_and_readiness(client: TestClient, backend: str) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": backend}


def _all_codes() -> list[str]:
    return [f"{rank}{suit}" for rank in ["A", *map(str, range(2, 11))] for suit in "CDHS"]
