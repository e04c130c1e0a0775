"""Idempotency-Key: retries return the original response and change nothing."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from api.db import Database
from api.idempotency import fingerprint
from api.models import GameRow, IdempotencyKeyRow, PlacementRow
from tests.conftest import CreatedGame, MakeGame


def count(database: Database, model: type[GameRow] | type[PlacementRow]) -> int:
    with database.transaction(write=False) as session:
        return int(session.scalar(select(func.count()).select_from(model)) or 0)


def test_retrying_a_game_creation_returns_the_same_game(
    client: TestClient, database: Database
) -> None:
    headers = {"Idempotency-Key": "create-1"}
    first = client.post("/games", json={"player": "ana"}, headers=headers)
    again = client.post("/games", json={"player": "ana"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.json()["token"] == first.json()["token"]
    assert again.headers["location"] == first.headers["location"]
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert count(database, GameRow) == 1


def test_the_stored_creation_never_holds_the_token_in_clear(
    client: TestClient, database: Database
) -> None:
    token = client.post("/games", headers={"Idempotency-Key": "k"}).json()["token"]
    with database.transaction(write=False) as session:
        row = session.get(IdempotencyKeyRow, ("games", "k"))
        assert row is not None and row.status_code == 201
        assert token not in (row.response_body or "")
        assert json.loads(row.response_body or "{}")["token"].startswith("masked:")


def test_same_key_with_another_body_is_422_idempotency_key_reused(
    client: TestClient, database: Database
) -> None:
    headers = {"Idempotency-Key": "create-2"}
    assert client.post("/games", json={"player": "ana"}, headers=headers).status_code == 201
    response = client.post("/games", json={"player": "bob"}, headers=headers)
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert count(database, GameRow) == 1


def test_retrying_a_placement_returns_the_original_and_places_nothing_more(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    headers = {**game.auth, "Idempotency-Key": "place-1"}
    first = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    again = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["etag"] == first.headers["etag"] == '"v2"'
    assert again.headers["idempotent-replayed"] == "true"
    assert count(database, PlacementRow) == 1
    # The replay is the original response even after the game moved on.
    client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    later = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    assert later.json() == first.json()
    assert count(database, PlacementRow) == 2


def test_a_placement_key_is_scoped_to_its_game(client: TestClient, make_game: MakeGame) -> None:
    one, two = make_game(), make_game()
    for game in (one, two):
        response = client.post(
            f"/games/{game.id}/placements",
            json={"row": 0, "col": 0},
            headers={**game.auth, "Idempotency-Key": "same-key"},
        )
        assert response.status_code == 201
        assert "idempotent-replayed" not in response.headers


def test_refused_placements_are_replayed_too(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    headers = {**game.auth, "Idempotency-Key": "bad-move"}
    first = client.post(f"/games/{game.id}/placements", json={"row": 1, "col": 1}, headers=headers)
    assert first.status_code == 422
    again = client.post(f"/games/{game.id}/placements", json={"row": 1, "col": 1}, headers=headers)
    assert again.status_code == 422
    assert again.json() == first.json()
    assert again.headers["content-type"] == "application/problem+json"
    assert again.headers["idempotent-replayed"] == "true"


def test_a_replay_needs_the_games_token(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    key = {"Idempotency-Key": "secret-ish"}
    client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers={**game.auth, **key}
    )
    response = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=key)
    assert response.status_code == 401


def test_a_retry_while_the_first_is_running_is_409(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    # The first request has claimed the key and not finished (as if still running).
    claim_origin_placement(database, game, "running", age=timedelta(0))
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": "running"},
    )
    assert response.status_code == 409
    assert response.json()["code"] == "request_in_progress"
    assert response.headers["retry-after"]
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 0


def test_a_claim_abandoned_by_a_crash_is_taken_over(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    # A process claimed the key five minutes ago and died before finishing.
    claim_origin_placement(database, game, "crashed", age=timedelta(minutes=5))
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": "crashed"},
    )
    assert response.status_code == 201


@pytest.mark.parametrize("key", ["", "x" * 256, "has space", "tab\tkey", "é"])
def test_malformed_keys_are_invalid_requests(
    client: TestClient, make_game: MakeGame, key: str
) -> None:
    game = make_game()
    raw_key = key.encode("utf-8")
    created = client.post("/games", headers={"Idempotency-Key": raw_key})  # type: ignore[dict-item]
    placed = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": raw_key},  # type: ignore[dict-item]
    )
    for response in (created, placed):
        assert response.status_code == 422
        problem = response.json()
        assert problem["code"] == "invalid_request"
        assert [error["loc"] for error in problem["errors"]] == [["header", "idempotency-key"]]
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 0


def claim_origin_placement(database: Database, game: CreatedGame, key: str, age: timedelta) -> None:
    """Store an unfinished claim of ``key`` for placing a card at (0, 0), made ``age`` ago."""
    with database.transaction(write=True) as session:
        session.add(
            IdempotencyKeyRow(
                scope=f"game:{uuid.UUID(game.id).hex}",
                key=key,
                fingerprint=fingerprint("POST", "placements", {"row": 0, "col": 0}),
                status_code=None,
                response_body=None,
                response_headers=None,
                created_at=datetime.now(UTC) - age,
                completed_at=None,
            )
        )
