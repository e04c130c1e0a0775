"""How a notification reaches every process (see :mod:`api.events.announce`).

- PostgreSQL: ``NOTIFY`` in the writing transaction (delivered only if it commits) and one
  ``LISTEN`` connection per process, whatever its number of watchers.
- Redis (``FOURSQUARE_REDIS_URL``): published once the transaction has committed, and one
  subscription per process.
- SQLite (one process): handed to the process's own hub once the transaction has committed.

A listener that loses its connection connects again (after a pause growing to a few seconds)
and has every watched game read again, since notifications sent meanwhile are lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError
from sqlalchemy.orm import Session

from api.core.database import Database, after_commit, psycopg_conninfo
from api.events import store
from api.events.hub import EventHub

log = logging.getLogger("foursquare.events")

REDIS_CHANNEL = "foursquare:events"
_PAUSES = (0.1, 0.5, 1.0, 2.0, 5.0)  # before each new attempt to listen, then the last


class Fanout:
    """In-process (one process on SQLite): a committed change is handed to the hub."""

    name = "process"

    def __init__(self, hub: EventHub) -> None:
        self.hub = hub
        self.loop = asyncio.get_running_loop()

    def announce(self, session: Session, payload: str) -> None:
        # Writes run in worker threads: the hub is the event loop's.
        after_commit(session, lambda: self._hand_over(self.hub.receive, payload))

    def _hand_over(self, receiver: Callable[[str], None], payload: str) -> None:
        # After the app has stopped (a tool or a test still writing), nobody is watching.
        with contextlib.suppress(RuntimeError):  # "Event loop is closed"
            self.loop.call_soon_threadsafe(receiver, payload)

    async def listen(self) -> None:
        await asyncio.Event().wait()  # nothing to listen to: announcements come in directly

    async def close(self) -> None:
        return None


class PostgresFanout(Fanout):
    """``NOTIFY`` in the writing transaction; one ``LISTEN`` connection per process."""

    name = "postgresql"

    def __init__(self, hub: EventHub, database: Database) -> None:
        super().__init__(hub)
        self.conninfo = psycopg_conninfo(database.url)

    def announce(self, session: Session, payload: str) -> None:
        store.notify(session, payload)

    async def listen(self) -> None:
        failures = 0
        while True:
            try:
                async for payload in store.notifications(self.conninfo):
                    if payload:
                        self.hub.receive(payload)
                    else:
                        failures = 0
                        self.hub.resync()
            except Exception as error:
                log.warning("events: PostgreSQL listener lost (%s); listening again", error)
            await asyncio.sleep(_PAUSES[min(failures, len(_PAUSES) - 1)])
            failures += 1


class RedisFanout(Fanout):
    """Published to Redis once the transaction has committed; one subscription per process."""

    name = "redis"

    def __init__(self, hub: EventHub, url: str) -> None:
        super().__init__(hub)
        self.url = url
        # Publishing must never hold anything up for long; the subscription waits for ever.
        self.publisher: Any = redis.Redis.from_url(
            url, socket_timeout=0.5, socket_connect_timeout=0.5
        )
        self._sending: set[asyncio.Task[Any]] = set()

    def announce(self, session: Session, payload: str) -> None:
        after_commit(session, lambda: self._hand_over(self._publish, payload))

    def _publish(self, payload: str) -> None:
        task = self.loop.create_task(self._send(payload))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def _send(self, payload: str) -> None:
        try:
            await self.publisher.publish(REDIS_CHANNEL, payload)
        except RedisError as error:
            # Lost: the watchers' hubs read the game again at their next heartbeat.
            log.warning("events: publishing to Redis failed: %s", error)

    async def listen(self) -> None:
        failures = 0
        while True:
            client: Any = redis.Redis.from_url(self.url, socket_connect_timeout=2)
            try:
                async with client.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(REDIS_CHANNEL)
                    failures = 0
                    self.hub.resync()
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            data = message["data"]
                            self.hub.receive(data.decode() if isinstance(data, bytes) else data)
            except Exception as error:
                log.warning("events: Redis subscription lost (%s); subscribing again", error)
            finally:
                await client.aclose()
            await asyncio.sleep(_PAUSES[min(failures, len(_PAUSES) - 1)])
            failures += 1

    async def close(self) -> None:
        await self.publisher.aclose()


def fanout_for(hub: EventHub, database: Database, redis_url: str | None) -> Fanout:
    """Redis if configured; else PostgreSQL's own notifications, or (SQLite) in-process."""
    if redis_url:
        return RedisFanout(hub, redis_url)
    if not database.is_sqlite:
        return PostgresFanout(hub, database)
    return Fanout(hub)
