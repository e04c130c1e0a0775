"""Live events: a game's placements as they are stored, the site's wins and challenge counts,
and the games being played.

A game's stream first sends what its client has not seen (after ``Last-Event-ID``), read
from the database, then what the hub offers it (:mod:`api.events.hub`). It subscribes before
it reads, so that nothing stored in between is missed, and skips what it has already sent,
so that nothing is sent twice; a placement number past the next one expected, or an end
before the game's last placement, makes it read the missing placements from the database.
What is sent is the database's, never a notification's: a placement's card is sent only once
that placement is stored.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from api.core import days
from api.core.clock import now, today
from api.core.cursors import open_time_cursor, seal_time_cursor
from api.core.database import Database
from api.core.errors import InvalidCursor
from api.events.hub import EventHub
from api.events.watchers import Item, Reading, Topic, Watcher
from api.games import GameInProgress, GameService, existing_game, games_in_progress, parse_game_id
from api.ops import metrics

_CURSOR_KIND = "in_progress"
_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class InProgressPage:
    games: list[GameInProgress]
    next_cursor: str | None


class EventService:
    """Event streams and the games in progress; the hub is the process's."""

    def __init__(
        self,
        database: Database,
        hub: EventHub,
        games: GameService,
        cursor_secret: bytes,
        untouched_for: timedelta,
        moved_within: timedelta,
    ) -> None:
        self.database = database
        self.hub = hub
        self.games = games
        self.cursor_secret = cursor_secret
        self.untouched_for = untouched_for  # the expiry's: longer, and a game is abandoned
        # Games being played are those that moved this recently (docs/operations.md#abandoned-
        # games): a game left alone for minutes is nobody's to watch, though it lives on.
        self.moved_within = min(moved_within, untouched_for)

    # ------------------------------------------------------------ a game's stream

    async def game_stream(
        self, game_id: str, token: str | None, after: int, address: str
    ) -> AsyncIterator[bytes]:
        """The events of a game after placement ``after``, then as they come, then its end:
        ``404`` for no such game, ``403 challenge_game_private`` as ``GET /games/{id}``,
        ``429``/``503`` beyond the stream caps. Checked before the stream starts."""
        game_uuid = parse_game_id(game_id)
        watcher = self.hub.watch(address, game_uuid)
        try:
            got = existing_game(await self.hub.first_read(watcher, after), game_id)
            if days.is_sealed(got.game.challenge_date, got.game.sealed):
                await self.games.history(game_id, token)  # its player's only, or 403
        except BaseException:
            self.hub.leave(watcher)
            raise
        events = self._events(watcher, *self.hub.game_items(game_uuid, got), after)
        # A stream never iterated (a HEAD, a client gone before the first byte) never runs
        # its ``finally``: its place and its watcher are given back when it is collected.
        weakref.finalize(events, self.hub.leave, watcher)
        return events

    async def topic_stream(
        self, key: uuid.UUID, topic: Topic, position: str | None, address: str
    ) -> AsyncIterator[bytes]:
        """A feature's stream (``topic``, keyed ``key``): what a watcher at ``position`` lacks,
        then what changes, until the topic says it is done; the stream caps as a game's. The
        topic's read raises its own errors (its 404). Subscribed before the first read, so
        no change is missed; each change is sent as what the watcher's position lacks, so
        nothing is sent twice."""
        watcher = self.hub.watch(address, key, topic)
        try:
            assert watcher.feed is not None
            reading = await self.hub.read_topic(watcher.feed)
        except BaseException:
            self.hub.leave(watcher)
            raise
        events = self._topic_events(watcher, reading, position)
        weakref.finalize(events, self.hub.leave, watcher)
        return events

    async def _topic_events(
        self, watcher: Watcher, reading: Reading, position: str | None
    ) -> AsyncIterator[bytes]:
        try:
            while True:
                sent, position, done = reading.after(position)
                for kind, event_id, data in sent:
                    yield _sent(self.hub.rendering.event(kind, data, event_id), kind)
                if done:
                    return
                items = await watcher.take()
                if watcher.closing:  # never dropped: its latest reading replaces the others
                    return
                for item in items:
                    if item.reading is not None:
                        reading = item.reading  # the latest says all
                    elif item.kind == "ping":
                        yield item.frame
        finally:
            self.hub.leave(watcher)

    async def _events(
        self, watcher: Watcher, got: list[Item], over: bool, last: int
    ) -> AsyncIterator[bytes]:
        """A game's stream: the items read after ``last``, then the hub's. An
        ``end`` carries the number of the game's last placement, any other item its own."""
        feed = watcher.feed
        assert feed is not None
        try:
            while True:
                # What the database holds after `last`: first the catch-up, then whatever
                # a gap in what the hub offered calls for.
                for item in got:
                    yield _sent(item.frame, item.kind)
                    last = item.number
                if over:
                    return
                gap = False
                while not gap:
                    items = await watcher.take()
                    if watcher.dropped:
                        yield _sent(self.hub.rendering.reconnect(last), "reconnect")
                        return
                    if watcher.closing:
                        return
                    for item in items:
                        expected = last if item.kind == "end" else last + 1
                        if item.kind == "ping":
                            yield item.frame
                        elif item.number < expected:
                            continue  # read in the catch-up already
                        elif item.number > expected:
                            gap = True
                            break
                        else:
                            yield _sent(item.frame, item.kind)
                            last = item.number
                            if item.kind == "end":
                                return
                read = await self.hub.read_items(feed.game_id, last)
                if read is None:
                    return  # deleted meanwhile
                got, over = read
        finally:
            self.hub.leave(watcher)

    # ------------------------------------------------------------ the site's stream

    def site_stream(self, address: str) -> AsyncIterator[bytes]:
        """Wins, new bests and challenge counts as they are recorded (``429``/``503``
        beyond the stream caps, checked before the stream starts)."""
        watcher = self.hub.watch(address, None)
        events = self._site_events(watcher)
        weakref.finalize(events, self.hub.leave, watcher)
        return events

    async def _site_events(self, watcher: Watcher) -> AsyncIterator[bytes]:
        try:
            while True:
                items = await watcher.take()
                if watcher.dropped:
                    yield _sent(self.hub.rendering.reconnect(None), "reconnect")
                    return
                if watcher.closing:
                    return
                for item in items:
                    yield item.frame if item.kind == "ping" else _sent(item.frame, item.kind)
        finally:
            self.hub.leave(watcher)

    # ------------------------------------------------------------ games in progress

    async def in_progress(self, limit: int, cursor: str | None) -> InProgressPage:
        """A page of the games being played, last changed first: games in progress that
        moved within ``moved_within``; daily challenge games of a day still open are left out
        (their player's only until it closes)."""
        after = _decode_cursor(self.cursor_secret, cursor) if cursor else None
        day = today()
        since = now() - self.moved_within
        rows = await self.database.read(
            lambda s: games_in_progress(s, day, after, limit + 1, since)
        )
        next_cursor = None
        if len(rows) > limit:
            last = rows[limit - 1]
            next_cursor = seal_time_cursor(
                self.cursor_secret, _CURSOR_KIND, last.updated_at, last.id
            )
        return InProgressPage(rows[:limit], next_cursor)


def _sent(frame: bytes, kind: str) -> bytes:
    metrics.event_sent(kind)
    return frame


def _decode_cursor(secret: bytes, cursor: str) -> tuple[datetime, uuid.UUID]:
    key = open_time_cursor(secret, cursor, _CURSOR_KIND)
    if key is None or not _EARLIEST <= key[0] <= _LATEST:
        raise InvalidCursor("not a cursor of the games in progress; start again without one")
    return key


__all__ = ["EventService", "InProgressPage"]
