"""A player's daily challenge streaks (issue 53): runs of consecutive UTC days with the day's
challenge finished, and won, on their page and their own, across days on the controllable
clock; a day missed breaks the current run, today not yet played does not. Both databases."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import create_app
from api.core.database import Database
from api.core.days import daily_deal
from api.games import expiry
from api.players.streaks import challenge_streak
from api.settings import Settings
from engine.solver import solve
from testkit import clock as fake_clock

SECRET = "streak-test-secret"
FIRST = date(2026, 12, 1)


@pytest.fixture
def app(database_url: str) -> FastAPI:
    settings = Settings(
        database_url=database_url, migrate_on_start=False, challenge_secret=SecretStr(SECRET)
    )
    return create_app(settings)


@pytest.fixture
def frozen() -> Iterator[fake_clock.FrozenClock]:
    with fake_clock.frozen(at(0)) as frozen_clock:
        yield frozen_clock


def at(day: int, hour: int = 10) -> datetime:
    """Hour ``hour`` of the ``day``-th day after FIRST (UTC)."""
    return datetime.combine(FIRST + timedelta(days=day), datetime.min.time(), UTC).replace(
        hour=hour
    )


def streak(client: TestClient, name: str) -> dict[str, int]:
    page = client.get(f"/players/{name}")
    assert page.status_code == 200, page.text
    found: dict[str, int] = page.json()["challenge_streak"]
    return found


def as_numbers(played: int, won: int, best_played: int, best_won: int) -> dict[str, int]:
    return {"played": played, "won": won, "best_played": best_played, "best_won": best_won}


def test_the_streaks_follow_the_days_played_and_won(
    client: TestClient, database: Database, frozen: fake_clock.FrozenClock
) -> None:
    registered = client.post("/players", json={"name": "ana"})
    assert registered.json()["challenge_streak"] == as_numbers(0, 0, 0, 0)
    ana = {"Authorization": f"Bearer {registered.json()['key']}"}

    def win_today(day: int) -> None:
        frozen.set(at(day))
        game = client.post("/games", json={"challenge": "daily"}, headers=ana).json()
        deal = daily_deal(SECRET.encode(), FIRST + timedelta(days=day))
        for cell in solve(list(deal.deck), nodes=200_000).line:
            placed = client.post(
                f"/games/{game['id']}/placements",
                json={"row": cell.row, "col": cell.col},
                headers=ana,
            )
            assert placed.status_code == 201, placed.text
        assert placed.json()["game"]["status"] == "won"

    def lose_today(day: int) -> None:
        # Started, left: the day closes, and the expiry ends it, lost (finished the next day).
        frozen.set(at(day))
        game = client.post("/games", json={"challenge": "daily"}, headers=ana)
        assert game.status_code == 201, game.text
        frozen.set(at(day + 1, 0))
        assert expiry.expire_untouched(database, timedelta(hours=168)) == 1

    win_today(0)
    assert streak(client, "ana") == as_numbers(1, 1, 1, 1)
    win_today(1)
    lose_today(2)
    # Day 3, not yet played: the run through day 2 stands; day 2 was lost.
    assert streak(client, "ana") == as_numbers(3, 0, 3, 2)
    # A game of today still in progress counts for nothing yet, and breaks nothing.
    frozen.set(at(3))
    started = client.post("/games", json={"challenge": "daily"}, headers=ana)
    assert started.status_code == 201
    assert streak(client, "ana") == as_numbers(3, 0, 3, 2)
    # Day 3's game ends on day 4, lost by the expiry: a day counts for its challenge's day.
    frozen.set(at(4, 0))
    assert expiry.expire_untouched(database, timedelta(hours=168)) == 1
    assert streak(client, "ana") == as_numbers(4, 0, 4, 2)
    # Day 4 missed: on day 5 the runs are broken, the best runs kept.
    frozen.set(at(5))
    assert streak(client, "ana") == as_numbers(0, 0, 4, 2)
    win_today(5)
    win_today(6)
    win_today(7)
    assert streak(client, "ana") == as_numbers(3, 3, 4, 3)
    # Their own page says the same.
    own = client.get("/players/me", headers=ana)
    assert own.status_code == 200, own.text
    assert own.json()["challenge_streak"] == as_numbers(3, 3, 4, 3)


def days(*numbers: int, lost: tuple[int, ...] = ()) -> list[tuple[date, bool]]:
    return [(FIRST + timedelta(days=n), n not in lost) for n in numbers]


@pytest.mark.parametrize(
    ("played", "today", "expected"),
    [
        (days(), 0, (0, 0, 0, 0)),
        (days(0), 0, (1, 1, 1, 1)),
        (days(0), 1, (1, 1, 1, 1)),  # today not yet played
        (days(0), 2, (0, 0, 1, 1)),  # yesterday missed
        (days(0, 1, 2, lost=(1,)), 2, (3, 1, 3, 1)),
        (days(0, 1, 3, 4, 5, lost=(4,)), 5, (3, 1, 3, 2)),  # day 2 missed
        (days(0, 1, 2, 3, lost=(3,)), 4, (4, 0, 4, 3)),
    ],
)
def test_runs_of_days(
    played: list[tuple[date, bool]], today: int, expected: tuple[int, int, int, int]
) -> None:
    got = challenge_streak(played, FIRST + timedelta(days=today))
    assert (got.played, got.won, got.best_played, got.best_won) == expected
