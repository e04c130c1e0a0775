"""The service's clock can be stopped and moved, and every stored time follows it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from api.core import clock
from testkit import clock as fake_clock


def test_a_frozen_clock_stamps_games_and_moves_only_when_told(client: TestClient) -> None:
    start = datetime(2020, 2, 28, 23, 59, 58, tzinfo=UTC)
    with fake_clock.frozen(start) as frozen:
        first = client.post("/games", json={"player": "ana"}).json()
        frozen.advance(seconds=3)
        second = client.post("/games", json={"player": "ana"}).json()
    assert datetime.fromisoformat(first["created_at"]) == start
    assert datetime.fromisoformat(second["created_at"]) == start + timedelta(seconds=3)
    assert clock.now() > start + timedelta(days=1)  # the wall clock again outside the block


def test_the_clock_refuses_naive_times() -> None:
    try:
        fake_clock.FrozenClock(datetime(2026, 1, 1))
    except ValueError:
        return
    raise AssertionError("a naive datetime was accepted")
