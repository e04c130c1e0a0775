"""Each request runs the fewest SQL statements it can (counted, not timed)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.core.database import Database
from api.settings import Settings
from tests.conftest import MakeGame
from tests.support.statements import counting


@pytest.fixture
def settings(database_url: str) -> Settings:
    """The app without its analysis runner, fair-play reviews, races or tournaments tickers.
    Each looks for work as the app starts and then every few seconds, each time with a SELECT
    of its own on the same engine; on a slow machine one of those landed inside a counted
    request."""
    return Settings(
        database_url=database_url,
        migrate_on_start=False,
        analysis_worker=False,
        fairplay_worker=False,
        race_worker=False,
        tournament_worker=False,
    )


def test_statements_per_request(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    with counting(database) as statements:
        client.get(f"/games/{game.id}")
    assert statements.kinds == ["SELECT"]

    with counting(database) as statements:
        client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    if database.is_sqlite:
        assert statements.kinds == ["SELECT", "UPDATE", "INSERT"]
    else:  # WITH moved AS (UPDATE games ...) INSERT INTO placements ...: one round trip,
        # which also sends the NOTIFY that tells every replica's watchers (api/events)
        assert statements.kinds == ["SELECT", "WITH"]
        assert "pg_notify" in statements.texts[1]

    with counting(database) as statements:
        client.post("/games")
    if database.is_sqlite:
        assert statements.kinds == ["INSERT"]
    else:  # and the NOTIFY that tells every replica's lists of games being played (api/events)
        assert statements.kinds == ["INSERT", "SELECT"]

    with counting(database) as statements:
        client.get(f"/games/{game.id}/placements")
    assert statements.kinds == ["SELECT"]  # the game and its placements in one statement

    with counting(database) as statements:
        client.get("/leaderboard")
    # The leaderboard's revision, the page, and what it leaves out: how many wins with hints
    # (a sum of the win counters) and how many the fair-play review holds, cached with the page.
    assert statements.kinds == ["SELECT", "SELECT", "SELECT"]

    with counting(database) as statements:
        client.get("/leaderboard")
    assert statements.kinds == ["SELECT"]  # unchanged revision: the page rendered before

    with counting(database) as statements:
        client.get("/healthz")
    assert statements.kinds == []
