"""One process's watchers and what they are sent: the hub between notifications and streams.

A notification (:mod:`api.events.fanout`) names a change: a game's placement or end, a win, a
game that began, moved or ended (:mod:`api.events.listing`), a daily challenge's counts.
The hub reads what changed from the database once, renders each event once, and offers it to
every watcher of it; a watcher's queue is bounded, and a watcher whose queue is full is dropped
(it gets a ``reconnect`` event and reconnects with its ``Last-Event-ID``), so that a slow
watcher costs nothing but itself.

A game's feed remembers the last placement it read, and reads only what follows: notifications
lost or repeated change nothing but when an event is read. Every watched game not read for a
heartbeat interval is read again at the next heartbeat, so that a lost notification delays its
events by two intervals at most (a game that moves is read at each move, which brings what a
lost notification left behind too). Streams sent nothing for an interval are pinged then. A
watcher that sees a placement number past the one it expects, or an end before it has sent the
game's last placement, reads the missing ones itself: no gap, whatever the feed did.

A stream's first read (what its client has not seen) is shared by the streams of the same
game that open before the game's feed offers anything more: a game's watchers all open as
it begins, and one read then serves them all, instead of one read (and one pool connection)
each. A stream may use a read begun before it subscribed only while its feed has offered
nothing since that read began: whatever was stored after the read's snapshot has then yet
to be offered, and is offered to it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any, Protocol

from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from api.challenges import counts as challenge_counts
from api.core import clock, days
from api.core.database import Database, Executor
from api.events import listing
from api.events.announce import parse_notice
from api.events.errors import EventStreamsFull, TooManyEventStreams
from api.events.watchers import Item, Reading, Topic, Watcher, offer_all
from api.games import GameFeed, GameState, ListedGame, PlacementRecord, game_feed, listed_since
from api.leaderboards import ScoreRecord, ranks_of_win, win, wins_since
from api.ops import metrics

log = logging.getLogger("foursquare.events")

# What a refused stream is told to wait: a watcher comes back soon, to another replica or this.
RETRY_AFTER_SECONDS = 5
# At most one line a minute says that streams are being refused.
FULL_LOG_SECONDS = 60.0
# A database read that failed is logged and left to the next heartbeat's re-read.
READ_FAILED = (DBAPIError, PoolTimeoutError)
_NOTIFY_LAG = timedelta(seconds=5)  # a notification sent this long before a loss may be lost


class Rendering(Protocol):
    """How events are written on the wire (the HTTP layer's, given to the hub by the app)."""

    def placement(self, placement: PlacementRecord) -> bytes: ...
    def end(self, game_id: uuid.UUID, state: GameState) -> bytes: ...
    def win(self, win: ScoreRecord, ranks: dict[str, int | None]) -> bytes: ...
    def best(self, board: str, win: ScoreRecord) -> bytes: ...
    def challenge(self, day: date, played: int, won: int) -> bytes: ...
    def listing(self, game: ListedGame) -> bytes: ...
    def reconnect(self, last_event_id: int | None) -> bytes: ...
    def event(self, kind: str, data: bytes, event_id: str) -> bytes: ...
    def ping(self) -> bytes: ...


@dataclass
class Opening:
    """A first read of a game's streams, shared: the placements after ``after``."""

    after: int
    read: asyncio.Task[GameFeed | None]


@dataclass(eq=False)
class Feed:
    """A watched game: its watchers, the last placement the hub read of it, and the first
    read its opening streams share (forgotten once the feed offers anything); or a watched
    topic (``topic``), read whole."""

    game_id: uuid.UUID  # or a topic's key
    topic: Topic | None = None
    listens: frozenset[uuid.UUID] = frozenset()
    watchers: set[Watcher] = field(default_factory=set)
    last: int | None = None
    reading: bool = False
    again: bool = False
    opening: Opening | None = None
    read_at: float = 0.0  # time.monotonic() of its last read
    latest: Reading | None = None  # a topic's last reading
    changed: set[uuid.UUID] | None = None  # the games moved since (None: read it whole)


class EventHub:
    """The watchers of one process, and the reads that feed them."""

    def __init__(
        self,
        database: Database,
        rendering: Rendering,
        *,
        queue: int,
        max_streams: int,
        max_per_client: int,
        heartbeat: float,
    ) -> None:
        self.database = database
        self.rendering = rendering
        self.queue = queue
        self.max_streams = max_streams
        self.max_per_client = max_per_client
        self.heartbeat = heartbeat
        self.feeds: dict[uuid.UUID, Feed] = {}
        self.listening: dict[uuid.UUID, set[Feed]] = {}  # a game's id: the topics it changes
        self.site: set[Watcher] = set()
        self.streams = 0
        self.per_client: Counter[str] = Counter()
        self._challenge_sent: dict[date, tuple[int, int]] = {}
        # Wins whose event was sent (or is being read), by when they were: a win is sent once
        # whether its notification, the heartbeat's re-read, or both bring it.
        self._wins_sent: dict[uuid.UUID, datetime] = {}
        self._site_since = clock.now()  # no win finished before the hub began is sent
        self._tasks: set[asyncio.Task[Any]] = set()
        self.listings = listing.Listings(self._read_listings, self._spawn)  # the site's list
        self._closed = False
        self._ping = Item(rendering.ping(), "ping")
        self._full_logged_at: float | None = None
        # Whether any stream is open: PostgreSQL's listener listens only meanwhile
        # (api.events.fanout.listen).
        self.watched = asyncio.Event()
        self.unwatched = asyncio.Event()
        self.unwatched.set()

    # ------------------------------------------------------------ streams and watchers

    def watch(self, address: str, game_id: uuid.UUID | None, topic: Topic | None = None) -> Watcher:
        """A watcher of the game ``game_id`` (None: of the site; or of the ``topic`` keyed so)
        for a stream of ``address``,
        or ``503`` (this process is full) or ``429`` (this address holds its share), both
        with Retry-After. Its place is given back by :meth:`leave`."""
        if self.streams >= self.max_streams:
            self._log_full()
            raise EventStreamsFull(
                f"this server holds {self.max_streams} event streams already; retry after "
                f"{RETRY_AFTER_SECONDS} seconds",
                retry_after=RETRY_AFTER_SECONDS,
            )
        if self.per_client[address] >= self.max_per_client:
            raise TooManyEventStreams(
                f"this client address holds {self.max_per_client} event streams already; close "
                f"one or retry after {RETRY_AFTER_SECONDS} seconds",
                retry_after=RETRY_AFTER_SECONDS,
            )
        self.streams += 1
        self.per_client[address] += 1
        if self.streams == 1:
            self.unwatched.clear()
            self.watched.set()
        feed = None
        if game_id is not None:
            feed = self.feeds.get(game_id)
            if feed is None:
                feed = self.feeds[game_id] = Feed(game_id, topic)
        watcher = Watcher(self.queue, address, feed)
        (self.site if feed is None else feed.watchers).add(watcher)
        if self._closed:
            watcher.close()
        metrics.event_stream_opened("site" if feed is None else "game")
        return watcher

    def _log_full(self) -> None:
        # Refusals come in bursts (a crowd reconnecting): one line a minute says so.
        at = time.monotonic()
        if self._full_logged_at is None or at - self._full_logged_at >= FULL_LOG_SECONDS:
            self._full_logged_at = at
            log.warning(
                "events: %d event streams open, this process's limit: new streams get 503",
                self.streams,
            )

    def leave(self, watcher: Watcher) -> None:
        """A stream's watcher and place, given back (a second call does nothing)."""
        if watcher.left:
            return
        watcher.left = True
        self.streams -= 1
        if self.streams == 0:
            self.watched.clear()
            self.unwatched.set()
        self.per_client[watcher.address] -= 1
        if self.per_client[watcher.address] <= 0:
            del self.per_client[watcher.address]
        feed = watcher.feed
        if feed is None:
            self.site.discard(watcher)
        else:
            feed.watchers.discard(watcher)
            if not feed.watchers and self.feeds.get(feed.game_id) is feed:
                del self.feeds[feed.game_id]
                self._listen(feed, frozenset())
        metrics.event_stream_closed("site" if feed is None else "game")

    async def first_read(self, watcher: Watcher, after: int) -> GameFeed | None:
        """The watched game and its placements after ``after`` (see the module docstring):
        one read shared by the streams that open together."""
        feed = watcher.feed
        assert feed is not None
        opening = feed.opening
        if opening is None or opening.after > after:
            read = asyncio.get_running_loop().create_task(self._read_game(feed.game_id, after))
            opening = feed.opening = Opening(after, read)
            read.add_done_callback(lambda done: self._opened(feed, opening, done))
        # Shielded: a client that leaves while it waits does not cancel the others' read.
        got = await asyncio.shield(opening.read)
        if got is None:
            return None
        if feed.last is None and got.game.status == "in_progress":
            # The feed's first reader: the feed reads on from what it read.
            feed.last = got.game.placements_count
        if opening.after == after:
            return got
        return GameFeed(got.game, [p for p in got.placements if p.number > after])

    def _opened(self, feed: Feed, opening: Opening, read: asyncio.Task[GameFeed | None]) -> None:
        # A failed read, or no such game, is not kept: the next stream reads again.
        if feed.opening is opening and (
            read.cancelled() or read.exception() is not None or read.result() is None
        ):
            feed.opening = None

    def _read_game(self, game_id: uuid.UUID, after: int) -> Coroutine[Any, Any, GameFeed | None]:
        return self.database.read(partial(game_feed, game_id=game_id, after=after))

    def _watchers(self) -> Iterator[Watcher]:
        yield from self.site
        for feed in self.feeds.values():
            yield from feed.watchers

    # ------------------------------------------------------------ notifications

    def receive(self, payload: str) -> None:
        """A notification from any process (see :mod:`api.events.announce`); unknown ones
        are ignored (a newer release may send more kinds)."""
        notice = parse_notice(payload)
        if notice is None:
            return
        if notice.kind in ("game", "listing") and notice.game_id is not None and self.site:
            self.listings.note(notice.game_id, at_once=notice.kind == "listing")
        if notice.kind in ("game", "topic") and notice.game_id is not None:
            feed = self.feeds.get(notice.game_id)
            if feed is not None:
                if feed.topic is None:
                    if feed.last is None:
                        feed.last = max(0, notice.number - 1)
                elif feed.changed is not None:
                    # The topic itself changed: its key among what changed, and its read
                    # decides what to read again (a tournament's, only its events after
                    # the last one read; a race's, all of it).
                    feed.changed.add(notice.game_id)
                self._refresh(feed)
            for topic in list(self.listening.get(notice.game_id, ())):
                if topic.changed is not None:
                    topic.changed.add(notice.game_id)
                self._refresh(topic)
        elif notice.kind == "win" and notice.game_id is not None and self.site:
            self._spawn(self._read_win(notice.game_id))
        elif notice.kind == "challenge" and notice.day is not None and self.site:
            self._spawn(self._read_challenge(notice.day))

    def resync(self, lost_at: datetime | None = None, *, idle: float | None = None) -> None:
        """Read every watched game, and the site's recent wins and challenge counts, again (a
        notification may be lost); and the games changed since ``lost_at``, the listener's
        loss. ``idle``: only the games not read for that many seconds (a game that moves is
        read at each move, which reads whatever a lost notification left behind too: a
        heartbeat that read every game at once held the loop up for every placement)."""
        before = time.monotonic() - idle if idle is not None else float("inf")
        for feed in list(self.feeds.values()):
            if (feed.last is not None or feed.topic is not None) and feed.read_at <= before:
                feed.changed = None
                self._refresh(feed)
        if self.site:
            self._spawn(self._recover_site(lost_at))

    def ping(self) -> None:
        """A keep-alive comment to every stream sent nothing for a heartbeat interval, so
        that proxies keep it open: the hub's heartbeat sends them all, rather than a timer
        task in each (a stream that is sent events needs none)."""
        before = time.monotonic() - self.heartbeat
        for watcher in self._watchers():
            if not watcher.items and watcher.sent_at <= before:
                watcher.offer(self._ping)

    async def _recover_site(self, lost_at: datetime | None = None) -> None:
        if lost_at is not None:  # games that moved are sent too: a list shows them as they are
            since = lost_at - _NOTIFY_LAG
            await self._read_listings(partial(listed_since, since=since, limit=100))
        now = clock.now()
        window = timedelta(seconds=2 * self.heartbeat + 10)  # commits lag their finish a bit
        since = max(self._site_since, now - window)
        for game_id, at in list(self._wins_sent.items()):
            if at < now - 2 * window:
                del self._wins_sent[game_id]
        try:
            recent = await self.database.read(lambda s: wins_since(s, since, 100))
        except READ_FAILED as error:
            log.warning("events: reading recent wins failed: %s", error)
            return
        for game_id in recent:
            if game_id not in self._wins_sent:
                await self._read_win(game_id)
        # Today's counts: sent if they moved since last sent (first read: only noted).
        day = clock.today()
        await self._read_challenge(day, send=day in self._challenge_sent)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)  # held: the loop keeps only a weak reference to a task
        task.add_done_callback(self._tasks.discard)

    def _refresh(self, feed: Feed) -> None:
        if feed.reading:
            feed.again = True  # read again once the read in progress is dispatched
            return
        feed.reading = True
        self._spawn(self._read_feed(feed))

    async def _read_feed(self, feed: Feed) -> None:
        try:
            while True:
                feed.again = False
                feed.read_at = time.monotonic()
                if feed.topic is not None:
                    reading = await self.read_topic(feed)
                    offer_all(feed.watchers, [Item(b"", "reading", reading=reading)])
                    if not feed.again:
                        return
                    continue
                got = await self.read_items(feed.game_id, feed.last or 0)
                if got is None or not self._dispatch(feed, *got) or not feed.again:
                    return
        except READ_FAILED as error:
            log.warning("events: reading game %s failed: %s", feed.game_id, error)
        finally:
            feed.reading = False

    async def read_items(self, game_id: uuid.UUID, after: int) -> tuple[list[Item], bool] | None:
        """What the database holds of a game's feed after number ``after``, as its streams
        send it, and whether that is the end of it; None for no such game."""
        got = await self._read_game(game_id, after)
        return None if got is None else self.game_items(game_id, got)

    async def read_topic(self, feed: Feed) -> Reading:
        """The topic's reading: whole, or its last with the games moved since read again (or
        as it is, if nothing moved); from now on a move of any game it listens to reads it
        again."""
        assert feed.topic is not None
        changed, feed.changed = feed.changed, set()
        previous = feed.latest if changed is not None else None
        try:
            reading = await feed.topic.read(feed.game_id, previous, frozenset(changed or ()))
        except BaseException:
            feed.changed = None  # what moved is not known any more: whole, next time
            raise
        feed.latest = reading
        if self.feeds.get(feed.game_id) is feed:
            self._listen(feed, reading.listens)
        return reading

    def _listen(self, feed: Feed, listens: frozenset[uuid.UUID]) -> None:
        for game_id in feed.listens - listens:
            topics = self.listening.get(game_id, set())
            topics.discard(feed)
            if not topics:
                self.listening.pop(game_id, None)
        for game_id in listens - feed.listens:
            self.listening.setdefault(game_id, set()).add(feed)
        feed.listens = listens

    def game_items(self, game_id: uuid.UUID, got: GameFeed) -> tuple[list[Item], bool]:
        """A game's placements as items, then its end (carrying the number of its last
        placement) if it is over; and whether it is."""
        items = [
            Item(self.rendering.placement(placement), "placement", placement.number)
            for placement in got.placements
        ]
        over = got.game.status != "in_progress"
        if over:
            end = self.rendering.end(game_id, got.game)
            items.append(Item(end, "end", got.game.placements_count))
        return items, over

    def _dispatch(self, feed: Feed, items: list[Item], over: bool) -> bool:
        """Offer what was read to the feed's watchers; False once the game is over (its feed
        is done)."""
        if items:
            feed.last = items[-1].number
            feed.opening = None  # a stream opening now must read what this offered
            offer_all(feed.watchers, items)
        if over and self.feeds.get(feed.game_id) is feed:
            del self.feeds[feed.game_id]
        return not over

    async def _read_win(self, game_id: uuid.UUID) -> None:
        if game_id in self._wins_sent:
            return  # sent, or being read
        self._wins_sent[game_id] = clock.now()

        def read(session: Any) -> tuple[ScoreRecord | None, dict[str, int | None]]:
            found = win(session, game_id)
            if found is None:
                return None, {}
            return found, ranks_of_win(session, game_id, found.assisted)

        try:
            found, ranks = await self.database.read(read)
        except READ_FAILED as error:
            log.warning("events: reading the win of game %s failed: %s", game_id, error)
            found = None
        if found is None:
            del self._wins_sent[game_id]  # the next heartbeat tries again
            return
        items = [Item(self.rendering.win(found, ranks), "win")]
        if not found.assisted:
            # The boards the leaderboard shows by default: games played without hints.
            items += [
                Item(self.rendering.best(board, found), "best")
                for board, rank in ranks.items()
                if rank == 1
            ]
        offer_all(self.site, items)

    async def _read_listings(self, read: Callable[[Executor], list[ListedGame]]) -> None:
        # Not re-read each heartbeat: lists re-read themselves; _recover_site after a lost listener.
        try:
            found = await self.database.read(read)
        except READ_FAILED as error:
            log.warning("events: reading games for the list failed: %s", error)
            return
        # A daily challenge game is its player's only until its day closes (a race's, its race).
        shown = [game for game in found if not days.is_sealed(game.challenge_date, game.sealed)]
        offer_all(self.site, [Item(self.rendering.listing(game), "game") for game in shown])

    async def _read_challenge(self, day: date, send: bool = True) -> None:
        try:
            counts = await self.database.read(lambda s: challenge_counts(s, day))
        except READ_FAILED as error:
            log.warning("events: reading the challenge of %s failed: %s", day, error)
            return
        if self._challenge_sent.get(day) == counts:
            return  # a notification repeated, or two read as one
        self._challenge_sent = {day: counts}
        if send:
            offer_all(self.site, [Item(self.rendering.challenge(day, *counts), "challenge")])

    # ------------------------------------------------------------ the process's life

    def close(self) -> None:
        """End every stream (the process is leaving): each watcher's stream ends cleanly and
        its client reconnects, to another replica."""
        self._closed = True
        for watcher in self._watchers():
            watcher.close()

    async def heartbeat_loop(self, leaving: Callable[[], bool]) -> None:
        """Each heartbeat interval, read every watched game again and ping every idle
        stream; every half second, see whether the server is leaving (then end every
        stream)."""
        waited = 0.0
        while True:
            await asyncio.sleep(0.5)
            try:
                if leaving() and not self._closed:
                    self.close()
                waited += 0.5
                if waited >= self.heartbeat:
                    waited = 0.0
                    self.ping()
                    self.resync(idle=self.heartbeat)
            except Exception:
                log.exception("events: the heartbeat failed; it goes on")

    async def drain(self) -> None:
        for task in list(self._tasks):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
