"""The public reads on the event loop (api.reads) when SQLite reports a lock."""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api import reads
from api.db import Database
from tests.conftest import MakeGame


@pytest.fixture
def backend() -> str:
    return "sqlite"  # the fallback and these driver errors are SQLite's


def test_a_read_the_loop_cannot_make_at_once_is_made_in_a_worker_thread(
    client: TestClient, database: Database, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game()
    expected = client.get(f"/games/{game.id}").json()
    loop_connection = database.reads._connection  # type: ignore[attr-defined]
    fetch_all = reads._fetch_all
    attempts: list[str] = []

    def locked_on_the_loop(connection: sqlite3.Connection, *args: Any) -> Any:
        attempts.append("loop" if connection is loop_connection else "thread")
        if connection is loop_connection:
            error = sqlite3.OperationalError("database is locked")
            error.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
            raise error
        return fetch_all(connection, *args)

    monkeypatch.setattr(reads, "_fetch_all", locked_on_the_loop)
    answer = client.get(f"/games/{game.id}")
    assert answer.status_code == 200
    assert answer.json() == expected
    assert attempts == ["loop", "thread"]


def test_a_database_locked_for_longer_than_the_busy_timeout_is_503_with_retry_after(
    client: TestClient, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In WAL mode a reader meets a lock only while a connection opens the database after a
    # crash (recovery) or another process holds it in exclusive locking mode, which cannot be
    # arranged while the service has it open: the driver's answer is simulated.
    game = make_game()

    def locked(*_args: Any) -> Any:
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
        raise error

    monkeypatch.setattr(reads, "_fetch_all", locked)
    answer = client.get(f"/games/{game.id}")
    assert answer.status_code == 503, answer.text
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == "database_busy"
    assert int(answer.headers["retry-after"]) >= 0
    monkeypatch.undo()
    assert client.get(f"/games/{game.id}").status_code == 200
