"""A clock the tests move: :func:`frozen` stops the service's clock (:mod:`api.core.clock`)
inside a block, so that a test crosses a day or a race's end without waiting for it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

from api.core.clock import using


class FrozenClock:
    """A clock that stands still until moved: ``clock.set(t)`` or ``clock.advance(delta)``."""

    def __init__(self, at: datetime) -> None:
        self.set(at)

    def set(self, at: datetime) -> None:
        if at.tzinfo is None:
            raise ValueError("the clock needs an aware datetime")
        self.at = at.astimezone(UTC)

    def advance(self, **delta: float) -> None:
        self.at += timedelta(**delta)

    def __call__(self) -> datetime:
        return self.at


@contextmanager
def frozen(at: datetime) -> Iterator[FrozenClock]:
    """Stop the clock at ``at`` inside the block; move it with the yielded :class:`FrozenClock`."""
    clock = FrozenClock(at)
    with using(clock):
        yield clock
