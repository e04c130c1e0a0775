"""Database engines, sessions and the public reads.

SQLite gets WAL mode and a busy timeout, and two engines: writes go through a one-connection
pool whose transactions start with ``BEGIN IMMEDIATE`` (so a read-then-write transaction can
never fail to upgrade its lock), while reads use a larger pool in autocommit mode. PostgreSQL
uses one pool for both, reads in autocommit.

Async routes run their write transactions with :meth:`Database.write`: writers wait their turn
on the event loop, first come first served, and only as many enter the thread pool as can
write at once (one on SQLite, whose write lock is single; the pool size on PostgreSQL). Waiting
in threads instead (dozens of them queued on the connection pool, each woken to contend for
the GIL) made both throughput and tail latency worse. The public reads run on the event loop
itself: see :mod:`api.reads`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker
from starlette.concurrency import run_in_threadpool

from api.in_play import GamesInPlay
from api.reads import PostgresReads, Reads, SqliteReads
from api.settings import Settings

T = TypeVar("T")


@dataclass(frozen=True)
class Database:
    """The engines, session factories and public reads of one app instance, and the games
    in play it stored last (:mod:`api.in_play`)."""

    url: str
    read_engine: Engine
    write_engine: Engine
    read_sessions: sessionmaker[Session]
    write_sessions: sessionmaker[Session]
    reads: Reads
    concurrent_writes: int
    in_play: GamesInPlay  # games this process stored last, for their next placement
    _write_turns: asyncio.Semaphore = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # asyncio primitives bind to the running loop when first waited on, not here.
        object.__setattr__(self, "_write_turns", asyncio.Semaphore(self.concurrent_writes))

    @property
    def is_sqlite(self) -> bool:
        return self.read_engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Session]:
        """A session whose transaction commits on success and rolls back on any error."""
        factory = self.write_sessions if write else self.read_sessions
        with factory() as session, session.begin():
            yield session

    async def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a write transaction in a worker thread, once it is this caller's
        turn (first come, first served); the transaction has committed when this returns."""
        async with self._write_turns:
            return await run_in_threadpool(self._write_now, work)

    def _write_now(self, work: Callable[[Session], T]) -> T:
        with self.transaction(write=True) as session:
            return work(session)

    async def open(self) -> None:
        """Open what needs the event loop (the public reads); called by the app's lifespan."""
        await self.reads.open()

    async def close(self) -> None:
        await self.reads.close()
        self.dispose()

    def dispose(self) -> None:
        self.read_engine.dispose()
        self.write_engine.dispose()


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
    """A SQLAlchemy ``postgresql+psycopg://`` URL as psycopg's own connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_database(settings: Settings) -> Database:
    """Engines and session factories for ``settings.database_url`` (nothing at import time)."""
    url = settings.database_url
    if make_url(url).get_backend_name() == "sqlite":
        read_engine = _sqlite_engine(
            url, settings, immediate=False, pool_size=settings.db_pool_size
        )
        write_engine = _sqlite_engine(url, settings, immediate=True, pool_size=1)
        reads: Reads = SqliteReads(read_engine)
        concurrent_writes = 1
    else:
        write_engine = create_engine(
            url,
            hide_parameters=True,  # errors and logs must never show a stored deck
            pool_size=settings.db_pool_size,
            max_overflow=settings.db_max_overflow,
            pool_timeout=settings.db_pool_timeout,
            # No pre-ping (a round trip per request): a dropped connection fails its request
            # with 503 and is then replaced; connections are recycled before servers drop them.
            pool_recycle=1800,
        )
        # Reads share the pool but run in autocommit: no BEGIN/COMMIT round trips for a
        # request that reads one game or one page with one SELECT.
        read_engine = write_engine.execution_options(isolation_level="AUTOCOMMIT")
        reads = PostgresReads(
            psycopg_conninfo(url), size=settings.db_read_pool_size, timeout=settings.db_pool_timeout
        )
        concurrent_writes = min(settings.db_write_concurrency, settings.db_pool_size)
    return Database(
        url=url,
        read_engine=read_engine,
        write_engine=write_engine,
        read_sessions=sessionmaker(read_engine, expire_on_commit=False),
        write_sessions=sessionmaker(write_engine, expire_on_commit=False),
        reads=reads,
        concurrent_writes=concurrent_writes,
        in_play=GamesInPlay(settings.games_in_play),
    )
