"""How a notification reaches every process (see :mod:`api.events.announce`).

- PostgreSQL: ``NOTIFY`` in the writing transaction (delivered only if it commits, by
  :func:`api.events.announce.announce` itself) and one ``LISTEN`` connection per process
  while it has watchers, whatever their number. A process without watchers does not listen:
  receiving every placement's notification cost it 0.15-0.23 M instructions each, for
  nobody (``bench/request_cost.py``). When the first stream opens it starts listening, and
  then reads every watched game again (as after a lost connection), so that a placement
  made before the ``LISTEN`` took effect is not missed.
- SQLite (one process): handed to the process's own hub once the transaction has committed.

A listener that loses its connection connects again (after a pause growing to a few seconds)
and has every watched game read again, since notifications sent meanwhile are lost; the site's
streams are sent the games begun or ended since the loss.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime

from sqlalchemy.orm import Session

from api.core import clock
from api.core.database import Database, after_commit, psycopg_conninfo
from api.events import store
from api.events.announce import PUBLISHER
from api.events.hub import EventHub

log = logging.getLogger("foursquare.events")

_PAUSES = (0.1, 0.5, 1.0, 2.0, 5.0)  # before each new attempt to listen, then the last


class InProcess:
    """SQLite: the publisher of the write sessions, which hands a committed change to the hub."""

    def __init__(self, hub: EventHub) -> None:
        self.hub = hub
        self.loop = asyncio.get_running_loop()

    def announce(self, session: Session, payload: str) -> None:
        after_commit(session, lambda: self._hand_over(payload))

    def _hand_over(self, payload: str) -> None:
        # Writes run in worker threads: the hub is the event loop's. After the app has
        # stopped (a tool or a test still writing), nobody is watching.
        with contextlib.suppress(RuntimeError):  # "Event loop is closed"
            self.loop.call_soon_threadsafe(self.hub.receive, payload)


async def listen(hub: EventHub, conninfo: str) -> None:
    """PostgreSQL: hand every notification to the hub, on one connection, while the hub has
    watchers, for ever."""
    failures = 0
    lost_at: datetime | None = None  # when the connection was lost, until listening again
    while True:
        await hub.watched.wait()
        relay = asyncio.create_task(_relay(hub, conninfo, lost_at))
        unwatched = asyncio.create_task(hub.unwatched.wait())
        try:
            await asyncio.wait((relay, unwatched), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (relay, unwatched):
                task.cancel()
            await asyncio.gather(relay, unwatched, return_exceptions=True)
        if relay.cancelled():  # no watcher left: it stopped listening on purpose
            failures = 0
            lost_at = None
            continue
        if relay.result():  # the connection was lost after listening: a short pause first
            failures = 0
            lost_at = clock.now()
        await asyncio.sleep(_PAUSES[min(failures, len(_PAUSES) - 1)])
        failures += 1


async def _relay(hub: EventHub, conninfo: str, lost_at: datetime | None) -> bool:
    """Listen and hand the hub each notification until the connection is lost; whether it
    was listening by then. ``lost_at``: when the last connection was lost."""
    listening = False
    try:
        async for payload in store.notifications(conninfo):
            if payload:
                hub.receive(payload)
            else:
                listening = True
                hub.resync(lost_at)
    except Exception as error:
        log.warning("events: PostgreSQL listener lost (%s); listening again", error)
    return listening


def connect(hub: EventHub, database: Database) -> Callable[[], None]:
    """Hand every committed change to ``hub`` (and every other process's): on SQLite this
    process's write sessions publish to it; on PostgreSQL one listener task (``LISTEN``) hears
    every process's ``NOTIFY``. Returns what disconnects it."""
    if database.is_sqlite:
        database.write_sessions.configure(info={PUBLISHER: InProcess(hub)})
        return lambda: database.write_sessions.configure(info={})
    task = asyncio.create_task(listen(hub, psycopg_conninfo(database.url)))

    def disconnect() -> None:
        task.cancel()

    return disconnect
