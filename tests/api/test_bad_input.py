"""Hostile and oversized input is refused cleanly; database trouble is a 503, never a 500."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.engine import make_url

from api.app import create_app
from api.settings import Settings


def test_bodies_over_the_limit_are_413(client: TestClient) -> None:
    response = client.post(
        "/games",
        content=b'{"player": "' + b"x" * 5000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "payload_too_large"


def test_streamed_bodies_over_the_limit_are_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(10):
            yield b" " * 1000

    response = client.post("/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert response.status_code == 413


@pytest.mark.parametrize("name", ["a\u0007b", "line\rbreak", "zero\u200bwidth", "\x7f"])
def test_player_names_with_control_characters_are_refused(client: TestClient, name: str) -> None:
    response = client.post("/games", json={"player": name})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_player_name"


def test_deeply_nested_json_is_refused_without_a_500(client: TestClient) -> None:
    body = b"[" * 2000 + b"]" * 2000
    response = client.post("/games", content=body, headers={"Content-Type": "application/json"})
    assert response.status_code in {413, 422}


def test_a_locked_sqlite_database_is_503_with_retry_after(sqlite_url: str) -> None:
    database_url = sqlite_url
    settings = Settings(
        database_url=database_url, migrate_on_start=False, sqlite_busy_timeout_ms=50
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        game_id = client.post("/games").json()["id"]
        path = make_url(database_url).database
        assert path is not None
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")
        try:
            response = client.post("/games")
            assert response.status_code == 503
            assert response.headers["retry-after"] == "1"
            assert response.json()["code"] == "database_busy"
            # WAL: readers are not blocked by the writer's lock.
            assert client.get(f"/games/{game_id}").status_code == 200
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert client.post("/games").status_code == 201


def test_database_errors_never_carry_the_values_they_were_given(client: TestClient) -> None:
    """Errors (and so the logs) show SQL but never its parameters, such as a stored deck."""
    import uuid

    from sqlalchemy import insert
    from sqlalchemy.exc import DBAPIError

    from api.core.database import Database
    from api.games.tables import placements

    database: Database = client.app.state.database  # type: ignore[attr-defined]
    statement = insert(placements).values(
        game_id=uuid.uuid4(),  # no such game: a foreign-key violation
        number=1,
        row=0,
        col=0,
        card="AS",
        flipped=[{"deck": "SECRET"}],
        status_after="in_progress",
        created_at=datetime.now(UTC),
    )
    with pytest.raises(DBAPIError) as caught, database.transaction() as session:
        session.execute(statement)
    assert "SECRET" not in str(caught.value)
    assert "parameters hidden" in str(caught.value)
