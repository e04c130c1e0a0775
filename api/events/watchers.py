"""A stream's watcher and what it is offered: its queue of events, bounded, or the latest
reading of the feature's stream it follows (:class:`Topic`)."""

from __future__ import annotations

import asyncio
import re
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from api.core.errors import echo
from api.events.errors import InvalidLastEventId
from api.ops import metrics

if TYPE_CHECKING:
    from api.events.hub import Feed


class Reading(Protocol):
    """What a feature's stream (a :class:`Topic`'s) holds at one moment, as read."""

    listens: frozenset[uuid.UUID]  # the games whose moves change it

    def after(self, position: str | None) -> tuple[list[tuple[str, str, bytes]], str, bool]:
        """The events (kind, id and JSON data) a watcher at ``position`` was not sent, its
        position after them, and whether its stream is done."""
        ...


def topic_position(
    raw: str | None, pattern: re.Pattern[str], stream: str, *, longest: int | None = None
) -> str | None:
    """A topic's ``Last-Event-ID`` as sent, trimmed, for the topic to take apart: None for
    none (a stream from its start), ``422 invalid_last_event_id`` for anything its ``pattern``
    does not match whole, or longer than ``longest`` (checked first: a pattern of repeated
    groups is matched in time that grows with the text). ``stream`` names it for the problem
    ("a race")."""
    if raw is None or not raw.strip():
        return None
    text = raw.strip()
    if (longest is not None and len(text) > longest) or pattern.fullmatch(text) is None:
        raise InvalidLastEventId(
            f"Last-Event-ID {echo(raw)!r} is no event of {stream}: send the id of the last "
            "event received"
        )
    return text


class Topic(Protocol):
    """A stream a feature publishes through the hub: what it holds is read from the database
    (a notice of ``key``, or of a game it listens to, makes the hub read it again), and each
    watcher is sent what its position lacks."""

    async def read(
        self, key: uuid.UUID, previous: Reading | None, changed: frozenset[uuid.UUID]
    ) -> Reading:
        """The stream as it is now: read whole (``previous`` None), or from ``previous`` and
        ``changed``, the games moved since it was read, with ``key`` among them if the topic
        itself changed (none: ``previous`` is current)."""
        ...


@dataclass(frozen=True)
class Item:
    """One event for a watcher: its frame, and the placement number it carries (an ``end``,
    the game's last: its stream must have sent every placement before it); or a topic's
    latest reading."""

    frame: bytes
    kind: str
    number: int = 0
    reading: Reading | None = None


class Watcher:
    """One stream: its place among the process's streams, and its queue, bounded (a watcher
    that lets it fill is dropped, not waited for).

    A plain list and a future made only while the stream waits: a process holds thousands
    of watchers, and an ``asyncio.Event`` with a ``deque`` costs several times as much."""

    __slots__ = (
        "_waiting",
        "address",
        "capacity",
        "closing",
        "dropped",
        "feed",
        "items",
        "left",
        "sent_at",
    )

    def __init__(self, capacity: int, address: str, feed: Feed | None) -> None:
        self.capacity = capacity
        self.address = address
        self.feed = feed  # None: the site's stream
        self.items: list[Item] = []
        self.sent_at = time.monotonic()  # when it was last offered something
        self.dropped = False  # too slow: tell it to reconnect
        self.closing = False  # the process is shutting down
        self.left = False  # its place is given back (once, whichever way its stream ends)
        self._waiting: asyncio.Future[None] | None = None

    def offer(self, item: Item) -> bool:
        """Queue ``item``; False (and the watcher is dropped) if its queue is full."""
        if self.dropped or self.closing:
            return False
        if item.reading is not None:
            # A topic's latest reading says all that the earlier ones did: one is queued.
            self.items = [queued for queued in self.items if queued.reading is None]
        if len(self.items) >= self.capacity:
            self.dropped = True
            self.items.clear()
            self._wake()
            metrics.watcher_dropped()
            return False
        self.items.append(item)
        self.sent_at = time.monotonic()
        self._wake()
        return True

    def close(self) -> None:
        self.closing = True
        self._wake()

    def _wake(self) -> None:
        if self._waiting is not None and not self._waiting.done():
            self._waiting.set_result(None)

    async def take(self) -> list[Item]:
        """Every item queued, once there is one (empty once dropped or closing)."""
        if not self.items and not self.dropped and not self.closing:
            self._waiting = asyncio.get_running_loop().create_future()
            try:
                await self._waiting
            finally:
                self._waiting = None
        if self.dropped or self.closing:
            return []
        items, self.items = self.items, []
        return items


def offer_all(watchers: set[Watcher], items: list[Item]) -> None:
    """Offer ``items`` to each of ``watchers``; one whose queue fills is dropped from them."""
    for watcher in list(watchers):
        for item in items:
            if not watcher.offer(item):
                watchers.discard(watcher)
                break
