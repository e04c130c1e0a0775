"""Database engines and transactions: the one way the service reaches its database.

Every statement goes through SQLAlchemy (its pools, its types, the features' ``store``
modules, which are plain functions of a connection or session). Services hand their work over
with :meth:`Database.read` and :meth:`Database.write`, which run it in one transaction and
return when it has committed.

Reads run on the event loop, without a hop to a worker thread: measured, the hop (and the
fight for the GIL between a pool of reading threads and the loop) cost about half of a
``GET /games/{id}``. On PostgreSQL they go through SQLAlchemy's asyncio engine with psycopg's
async connections and its own pool (:meth:`AsyncConnection.run_sync` runs the same store
functions the writes use, on a connection whose statements are awaited). On SQLite they run
inline: a read is a few in-process B-tree lookups, WAL readers never wait for the writer, and
an ``aiosqlite`` connection would hop to its own thread for every statement.

Writes run in worker threads and take turns: at most ``concurrent_writes`` write transactions
run at once (one on SQLite, whose write lock is single; a few on PostgreSQL), and the others
wait on the event loop, first come first served, for an ``anyio.CapacityLimiter`` rather than
as threads queued on the connection pool, where each waiter holds a thread and is woken to
contend for the GIL.

SQLite gets WAL mode and a busy timeout, and two engines: writes go through a one-connection
pool whose transactions start with ``BEGIN IMMEDIATE`` (so a read-then-write transaction can
never fail to upgrade its lock), while reads use a larger pool and run each statement in
autocommit (WAL readers see a consistent snapshot and are not blocked by the writer).
PostgreSQL uses one pool for the writes (and the tools' reads), and the asyncio engine's
pool for the requests' reads, in autocommit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import anyio.to_thread
from anyio import CapacityLimiter
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import Session, sessionmaker

from api.core.settings import Settings

T = TypeVar("T")

# What a read runs on: a read connection, or the session of the transaction it is part of.
Executor = Session | Connection


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once ``session``'s transaction has committed, and never if it rolls
    back: the metrics count what was stored, not what was attempted."""
    event.listen(session, "after_commit", lambda _session: action(), once=True)


@dataclass(frozen=True)
class Database:
    """The engines and session factories of one app instance."""

    url: str
    read_engine: Engine
    write_engine: Engine
    write_sessions: sessionmaker[Session]
    concurrent_writes: int
    # PostgreSQL: the requests' reads, on the event loop (None on SQLite: they run inline).
    async_read_engine: AsyncEngine | None = None
    _write_turns: CapacityLimiter = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_write_turns", CapacityLimiter(self.concurrent_writes))

    @property
    def is_sqlite(self) -> bool:
        return self.read_engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A write session whose transaction commits on success and rolls back on any
        error."""
        with self.write_sessions() as session, session.begin():
            yield session

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A read connection (autocommit: each statement sees a consistent snapshot)."""
        with self.read_engine.connect() as connection:
            yield connection

    async def read(self, work: Callable[[Connection], T]) -> T:
        """Run ``work`` on a read connection, on the event loop (see the module docstring).
        Reads use a Core connection, not an ORM session: they select columns, never objects,
        and a session's setup costs as much CPU as a one-row SELECT."""
        if self.async_read_engine is None:
            return self._read_now(work)
        async with self.async_read_engine.connect() as connection:
            return await connection.run_sync(work)

    async def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a write transaction in a worker thread, once it is this caller's
        turn (first come, first served); the transaction has committed when this returns."""
        return await anyio.to_thread.run_sync(self._write_now, work, limiter=self._write_turns)

    async def in_write_turn(self, work: Callable[[], T]) -> T:
        """Run ``work`` in a worker thread during a write turn: for work that makes several
        transactions of its own (the expiry of abandoned games, batch after batch)."""
        return await anyio.to_thread.run_sync(work, limiter=self._write_turns)

    def _read_now(self, work: Callable[[Connection], T]) -> T:
        with self.reading() as connection:
            return work(connection)

    def _write_now(self, work: Callable[[Session], T]) -> T:
        with self.transaction() as session:
            return work(session)

    def dispose(self) -> None:
        """Close the pools of the synchronous engines (tools that made no async read)."""
        self.read_engine.dispose()
        self.write_engine.dispose()

    async def close(self) -> None:
        """Close every pool (the app's lifespan, on the loop its async reads ran on)."""
        if self.async_read_engine is not None:
            await self.async_read_engine.dispose()
        self.dispose()


def _sqlite_engine(url: str, settings: Settings, *, immediate: bool, pool_size: int) -> Engine:
    engine = create_engine(
        url,
        hide_parameters=True,  # errors and logs must never show a stored deck
        pool_size=pool_size,
        max_overflow=0 if immediate else settings.db_max_overflow,
        pool_timeout=settings.db_pool_timeout,
        connect_args={
            "check_same_thread": False,
            "timeout": settings.sqlite_busy_timeout_ms / 1000,
        },
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy, not the driver, emit BEGIN (so we choose its kind), then set pragmas.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(settings.sqlite_busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    if immediate:

        @event.listens_for(engine, "begin")
        def _on_begin(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

    # Reads emit no BEGIN at all: each SELECT is atomic on its own in autocommit mode, and a
    # request reads one game (or one page) with one statement.
    return engine


def psycopg_conninfo(url: str) -> str:
    """A SQLAlchemy ``postgresql+psycopg://`` URL as psycopg's own connection string (for
    tools and tests that talk to the server directly)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_database(settings: Settings) -> Database:
    """Engines and session factories for ``settings.database_url`` (nothing at import time)."""
    url = settings.database_url
    if make_url(url).get_backend_name() == "sqlite":
        read_engine = _sqlite_engine(
            url, settings, immediate=False, pool_size=settings.db_pool_size
        )
        write_engine = _sqlite_engine(url, settings, immediate=True, pool_size=1)
        concurrent_writes = 1
        async_read_engine = None
    else:
        write_engine = create_engine(
            url,
            hide_parameters=True,  # errors and logs must never show a stored deck
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout,
            # No pre-ping (a round trip per request): a connection the server dropped fails
            # its request with 503, and SQLAlchemy then invalidates the pool's older
            # connections; connections are recycled before servers drop idle ones.
            pool_recycle=1800,
        )
        # Reads share the pool but run in autocommit: no BEGIN/COMMIT round trips for a
        # request that reads one game or one page with one SELECT.
        read_engine = write_engine.execution_options(isolation_level="AUTOCOMMIT")
        concurrent_writes = min(settings.db_write_concurrency, settings.db_pool_size)
        async_read_engine = create_async_engine(
            url,
            hide_parameters=True,
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout,
            pool_recycle=1800,
            isolation_level="AUTOCOMMIT",
        )
    return Database(
        url=url,
        read_engine=read_engine,
        write_engine=write_engine,
        write_sessions=sessionmaker(write_engine, expire_on_commit=False),
        concurrent_writes=concurrent_writes,
        async_read_engine=async_read_engine,
    )
