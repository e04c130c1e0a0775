"""Each request runs the fewest SQL statements it can (counted, not timed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from api.core.database import Database
from api.core.settings import Settings
from tests.conftest import MakeGame

DATA_STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The app without its analysis runner. The runner looks for queued analyses as the app
    starts and then every few seconds, each time with a SELECT of its own on the same engine;
    on a slow machine one of those landed inside a counted request."""
    return Settings(database_url=database_url, migrate_on_start=False, analysis_worker=False)


@contextmanager
def counting(database: Database) -> Iterator[list[str]]:
    statements: list[str] = []

    def record(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(DATA_STATEMENTS):
            statements.append(statement.split()[0].upper())

    # On PostgreSQL the read engine is the write engine with other options (one pool, one set
    # of event listeners): listen once per pool; the requests' reads go through the asyncio
    # engine, whose statements its synchronous facade sees.
    candidates = [database.read_engine, database.write_engine]
    if database.async_read_engine is not None:
        candidates.append(database.async_read_engine.sync_engine)
    by_pool = {engine.pool: engine for engine in candidates}
    engines = list(by_pool.values())
    for engine in engines:
        event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        for engine in engines:
            event.remove(engine, "before_cursor_execute", record)


def test_statements_per_request(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    with counting(database) as statements:
        client.get(f"/games/{game.id}")
    assert statements == ["SELECT"]

    with counting(database) as statements:
        client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    if database.is_sqlite:
        assert statements == ["SELECT", "UPDATE", "INSERT"]
    else:  # WITH moved AS (UPDATE games ...) INSERT INTO placements ...: one round trip,
        # and the NOTIFY that tells every replica's watchers (api/events), in its transaction
        assert statements == ["SELECT", "WITH", "SELECT"]

    with counting(database) as statements:
        client.post("/games")
    assert statements == ["INSERT"]

    with counting(database) as statements:
        client.get(f"/games/{game.id}/placements")
    assert statements == ["SELECT"]  # the game and its placements in one statement

    with counting(database) as statements:
        client.get("/leaderboard")
    assert statements == ["SELECT", "SELECT"]  # the leaderboard's revision, then the page

    with counting(database) as statements:
        client.get("/leaderboard")
    assert statements == ["SELECT"]  # unchanged revision: the page rendered before

    with counting(database) as statements:
        client.get("/healthz")
    assert statements == []
