"""The service's one clock: every timestamp it stores and every "today" it decides comes from
:func:`now`.

Leaderboard windows (a UTC day, an ISO week) and the daily challenge turn on the date, and tests
must cross those boundaries without waiting for midnight, so the clock can be replaced for the
duration of a ``with`` block (:func:`using`; the tests' ``testkit.clock.frozen``). It is
process-wide on purpose: the app under ``TestClient`` runs its handlers in other threads of the
same process, and they must all see the same time. Production code never replaces it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime

Clock = Callable[[], datetime]


def _wall_clock() -> datetime:
    return datetime.now(UTC)


_clock: Clock = _wall_clock


def now() -> datetime:
    """The current time, timezone-aware in UTC."""
    return _clock()


def today() -> date:
    """The UTC day of the service's clock (the day whose boards and challenge are open)."""
    return now().astimezone(UTC).date()


@contextmanager
def using(clock: Clock) -> Iterator[None]:
    """Read the time from ``clock`` inside the block (it must return aware datetimes)."""
    global _clock
    previous, _clock = _clock, clock
    try:
        yield
    finally:
        _clock = previous
