"""Database engines and transactions: the one way the service reaches its database.

Every statement goes through SQLAlchemy (its pools, its types, the features' ``store``
modules, which are plain functions of a connection or session). Services hand their work over
with :meth:`Database.read` and :meth:`Database.write`, which run it in one transaction and
return when it has committed.

On PostgreSQL a request's reads and writes run on the event loop, through SQLAlchemy's asyncio
engine with the asyncpg dialect (``postgresql+asyncpg``, whatever driver the configured URL
names: the tools keep psycopg's synchronous engine). Each unit of work runs in one greenlet
(:func:`sqlalchemy.util.greenlet_spawn`, what every ``AsyncConnection`` method is built on):
the store functions run as they are, their statements awaited on the loop, and the connection
is checked out, used and returned in that one greenlet rather than in three
(``connect``, ``run_sync``, ``close``), each of which maps and unmaps a stack. Reads and
writes have an engine (and a pool) each: the reads' connections are made in autocommit once,
when they are opened, where a read on a connection of the writes' pool would switch it to
autocommit and back at each checkout (SQLAlchemy's connection characteristics, set and reset
every time: a third of a ``SELECT 1``'s instructions). Measured with
``bench/request_cost.py``, asyncpg costs a sixth fewer instructions per read than psycopg's
async connection, and the one greenlet another twelfth. Writes take turns: at most
``concurrent_writes`` write transactions run at once and the others wait, first come first
served, for an ``anyio.CapacityLimiter``; no thread is involved, so the writes no longer take
the GIL from the loop (measured at 32 clients, a thread per write made five times the context
switches and half again the CPU per placement), and their pool holds as many connections as
may write at once.

A unit of work, once started, runs to its end even if its request is cancelled (a client gone):
a transaction is never left half-way on a connection returned to the pool, and a write whose
answer is lost has committed or not as if the client had stayed, as with a worker thread.

On SQLite reads run inline: a read is a few in-process B-tree lookups, WAL readers never wait
for the writer, and an ``aiosqlite`` connection would hop to its own thread for every
statement. Its writes run in a worker thread, one at a time (its write lock is single). It gets
WAL mode and a busy timeout, and two engines: writes go through a one-connection pool whose
transactions start with ``BEGIN IMMEDIATE`` (so a read-then-write transaction can never fail to
upgrade its lock), while reads use a larger pool and run each statement in autocommit (WAL
readers see a consistent snapshot and are not blocked by the writer).

The synchronous engines (psycopg on PostgreSQL) serve the command-line tools and the expiry's
batches (:meth:`Database.transaction`, :meth:`Database.in_write_turn`).

Where a request's time went (its ``Server-Timing``, its log line, its metrics: api.ops.observer)
is counted here, into the request's :class:`api.core.context.RequestContext`: the wait for a
write turn around the limiter, the wait for a pooled connection around its checkout, and the
time in the database around each statement (the dialect's ``do_execute`` hooks, around the
driver's call, on every engine, the asyncio ones included) and each commit. Work outside a
request (the tools, the expiry) has no context and counts nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, TypeVar

import anyio.to_thread
import asyncpg
from anyio import CancelScope, CapacityLimiter
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import ExceptionContext, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.util import greenlet_spawn

from api.core.context import REQUEST
from api.core.settings import CoreSettings

T = TypeVar("T")

# What a read runs on: a read connection, or the session of the transaction it is part of.
Executor = Session | Connection


_AFTER_COMMIT = "foursquare.after_commit"  # the key of a transaction's actions in Session.info


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once ``session``'s transaction has committed, and never if it rolls
    back: the metrics count what was stored, not what was attempted. The actions wait in the
    session's ``info``, run by one listener of every session: a listener of its own for each
    action cost a placement more than its statement's execution did on SQLite."""
    session.info.setdefault(_AFTER_COMMIT, []).append(action)


@event.listens_for(Session, "after_commit")
def _committed(session: Session) -> None:
    for action in session.info.pop(_AFTER_COMMIT, ()):
        action()


@event.listens_for(Session, "after_rollback")
def _rolled_back(session: Session) -> None:
    session.info.pop(_AFTER_COMMIT, None)


@dataclass(frozen=True)
class Database:
    """The engines and session factories of one app instance."""

    url: str
    read_engine: Engine
    write_engine: Engine
    write_sessions: sessionmaker[Session]
    concurrent_writes: int
    # PostgreSQL: the requests' writes and reads, on the event loop (None on SQLite).
    async_engine: AsyncEngine | None = None
    async_read_engine: AsyncEngine | None = None
    _write_turns: CapacityLimiter = field(init=False, repr=False)
    # The asyncio engines' synchronous facades, run inside a greenlet: reads in autocommit,
    # writes in sessions of their own.
    _loop_reads: Engine | None = field(init=False, repr=False, default=None)
    _loop_sessions: sessionmaker[Session] | None = field(init=False, repr=False, default=None)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_write_turns", CapacityLimiter(self.concurrent_writes))
        for engine in {self.read_engine.engine, self.write_engine.engine}:
            _time_statements(engine)
        for async_engine in (self.async_engine, self.async_read_engine):
            if async_engine is not None:
                _time_statements(async_engine.sync_engine)
        if self.async_engine is not None and self.async_read_engine is not None:
            object.__setattr__(self, "_loop_reads", self.async_read_engine.sync_engine)
            sessions = sessionmaker(self.async_engine.sync_engine, expire_on_commit=False)
            object.__setattr__(self, "_loop_sessions", sessions)

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
        if self._loop_reads is None:
            return self._read_now(work)
        with CancelScope(shield=True), _unreachable_as_operational():
            result: T = await greenlet_spawn(_on_connection, self._loop_reads, work)
        return result

    async def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a write transaction once it is this caller's turn (first come,
        first served): on PostgreSQL on the event loop, on SQLite in a worker thread. The
        transaction has committed when this returns."""
        request = REQUEST.get()
        waited = perf_counter()
        async with self._write_turns:
            if request is not None:
                request.turn += perf_counter() - waited
                request.turns += 1
            if self._loop_sessions is None:
                # The turn taken above, the thread is anyio's (its limiter far above one).
                return await anyio.to_thread.run_sync(self._write_now, work)
            # Started, it ends (the module docstring).
            with CancelScope(shield=True), _unreachable_as_operational():
                result: T = await greenlet_spawn(_in_transaction, self._loop_sessions, work)
        return result

    async def in_write_turn(self, work: Callable[[], T]) -> T:
        """Run ``work`` in a worker thread during a write turn: for work that makes several
        transactions of its own (the expiry of abandoned games, batch after batch)."""
        return await anyio.to_thread.run_sync(work, limiter=self._write_turns)

    def _read_now(self, work: Callable[[Connection], T]) -> T:
        return _on_connection(self.read_engine, work)

    def _write_now(self, work: Callable[[Session], T]) -> T:
        return _in_transaction(self.write_sessions, work)

    def dispose(self) -> None:
        """Close the pools of the synchronous engines (tools that made no async read)."""
        self.read_engine.dispose()
        self.write_engine.dispose()

    async def close(self) -> None:
        """Close every pool (the app's lifespan, on the loop its async reads ran on)."""
        for engine in (self.async_engine, self.async_read_engine):
            if engine is not None:
                await engine.dispose()
        self.dispose()


# SQLSTATE classes that mean "try again later", as psycopg's OperationalError has them: a
# connection lost or refused (08), a transaction rolled back by a conflict (40), resources
# exhausted (53), the server shutting down or a query cancelled (57), a system error (58), a
# lock not available (55P03). asyncpg raises them as plain PostgresError subclasses, which
# SQLAlchemy's asyncpg dialect hands on as a bare DBAPIError; the API answers
# OperationalError with 503 and Retry-After, anything else with 500.
_TRANSIENT_CLASSES = ("08", "40", "53", "57", "58")
_TRANSIENT_STATES = ("55P03",)


def _transient_as_operational(context: ExceptionContext) -> None:
    """``handle_error``: a lost connection, or a transient state, raised as the
    ``OperationalError`` it is (after SQLAlchemy's own clean-up, such as invalidating the
    pool's older connections once one was found dead)."""
    error = context.sqlalchemy_exception
    if error is None or isinstance(error, OperationalError):
        return
    state = getattr(context.original_exception, "sqlstate", None) or ""
    if context.is_disconnect or state[:2] in _TRANSIENT_CLASSES or state in _TRANSIENT_STATES:
        raise OperationalError(
            context.statement,
            context.parameters,
            context.original_exception,
            hide_parameters=True,
            connection_invalidated=context.is_disconnect,
        ) from context.original_exception


@contextmanager
def _unreachable_as_operational() -> Iterator[None]:
    """A connection that cannot be made (the server down, starting or refusing): asyncpg's
    ``connect`` raises its own errors (``OSError``, ``CannotConnectNowError``...) untranslated
    by SQLAlchemy, and they are the ``OperationalError`` psycopg would have raised. Every
    later error of the driver comes wrapped by SQLAlchemy (:func:`_transient_as_operational`)."""
    try:
        yield
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
        raise OperationalError(None, None, error) from error


def _on_connection(engine: Engine, work: Callable[[Connection], T]) -> T:
    request = REQUEST.get()
    if request is None:
        with engine.connect() as connection:
            return work(connection)
    waited = perf_counter()
    with engine.connect() as connection:  # the pool's checkout
        request.pool += perf_counter() - waited
        request.connections += 1
        return work(connection)


def _in_transaction(sessions: sessionmaker[Session], work: Callable[[Session], T]) -> T:
    request = REQUEST.get()
    if request is None:
        with sessions() as session, session.begin():
            return work(session)
    with sessions() as session:
        with session.begin():
            # The session's connection, checked out now rather than at its first statement,
            # so that the wait for it is told apart (no round trip: the driver begins its
            # transaction with the first statement). On SQLite its BEGIN IMMEDIATE is a
            # statement, counted in the database's time and not again in the pool's.
            waited, in_database = perf_counter(), request.db
            session.connection()
            request.pool += perf_counter() - waited - (request.db - in_database)
            request.connections += 1
            result = work(session)
            committing = perf_counter()
        request.db += perf_counter() - committing
        return result


# The dialect's execution hooks time each statement: they run the driver's call themselves and
# say so (``True``), and cost one call a statement. SQLAlchemy's connection events
# (``before_cursor_execute``...) would do too, but a listener of those makes every connection
# of the engine dispatch all its events (begin, commit, execute...): some 50 more Python calls
# per read, counted with sys.setprofile.


def _timed_execute(cursor: Any, statement: str, parameters: Any, context: Any) -> bool:
    request = REQUEST.get()
    if request is None:
        return False  # the dialect runs it, untimed
    started = perf_counter()
    try:
        context.dialect.do_execute(cursor, statement, parameters, context)
    finally:
        request.db += perf_counter() - started
    return True


def _timed_execute_no_params(cursor: Any, statement: str, context: Any) -> bool:
    request = REQUEST.get()
    if request is None:
        return False
    started = perf_counter()
    try:
        context.dialect.do_execute_no_params(cursor, statement, context)
    finally:
        request.db += perf_counter() - started
    return True


def _timed_executemany(cursor: Any, statement: str, parameters: Any, context: Any) -> bool:
    request = REQUEST.get()
    if request is None:
        return False
    started = perf_counter()
    try:
        context.dialect.do_executemany(cursor, statement, parameters, context)
    finally:
        request.db += perf_counter() - started
    return True


def _time_statements(engine: Engine) -> None:
    """Count each statement's time in the database (failed ones too) into its request's."""
    if not event.contains(engine, "do_execute", _timed_execute):
        event.listen(engine, "do_execute", _timed_execute)
        event.listen(engine, "do_execute_no_params", _timed_execute_no_params)
        event.listen(engine, "do_executemany", _timed_executemany)


# The pools' sizes (docs/operations.md, "Sizing the pools", adds them up against PostgreSQL's
# max_connections). No pool that serves requests overflows: an overflow connection is closed
# as soon as it is returned to a full pool, so under a load the pool cannot hold, every return
# closes one and the next checkout opens one again (on PostgreSQL a backend started, asyncpg's
# setup and the dialect's first queries, every statement prepared again). A request that
# finds every connection busy waits instead for another's statement to end, which is shorter
# than opening a connection, and for FOURSQUARE_DB_POOL_TIMEOUT at most (then a 503).


def _sqlite_engine(url: str, settings: CoreSettings, *, immediate: bool, pool_size: int) -> Engine:
    engine = create_engine(
        url,
        hide_parameters=True,  # errors and logs must never show a stored deck
        pool_size=pool_size,
        max_overflow=0,  # (see above)
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


# A connection older than this is closed and opened again at its next checkout, before a
# firewall or proxy that drops long-lived connections can break it under a request (with no
# pre-ping, that request would get a 503): one new connection per pooled connection every
# half hour.
_RECYCLE_SECONDS = 1800


def _loop_engine(
    url: str, settings: CoreSettings, size: int, isolation_level: str | None = None
) -> AsyncEngine:
    """An asyncio engine with the asyncpg dialect, whatever driver ``url`` names, keeping
    ``size`` connections and never more (see "No pool that serves requests overflows")."""
    engine = create_async_engine(
        make_url(url).set(drivername="postgresql+asyncpg"),
        hide_parameters=True,  # errors and logs must never show a stored deck
        pool_size=size,
        max_overflow=0,
        pool_timeout=settings.db_pool_timeout,
        pool_recycle=_RECYCLE_SECONDS,
        **({"isolation_level": isolation_level} if isolation_level else {}),
    )
    event.listen(engine.sync_engine, "handle_error", _transient_as_operational)
    return engine


def psycopg_conninfo(url: str) -> str:
    """A SQLAlchemy ``postgresql+psycopg://`` URL as psycopg's own connection string (for
    tools and tests that talk to the server directly)."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_database(settings: CoreSettings) -> Database:
    """Engines and session factories for ``settings.database_url`` (nothing at import time)."""
    url = settings.database_url
    if make_url(url).get_backend_name() == "sqlite":
        # Reads run inline, one at a time on the event loop; the pool's other connections
        # serve threads (the expiry's batches, a test's). Opened as needed.
        read_engine = _sqlite_engine(
            url, settings, immediate=False, pool_size=settings.db_pool_size
        )
        write_engine = _sqlite_engine(url, settings, immediate=True, pool_size=1)  # one writer
        concurrent_writes = 1
        async_engine = async_read_engine = None
    else:
        # The tools' engine (psycopg): in a server only the expiry uses it, one batch after
        # another, and a command one statement after another: one connection kept.
        write_engine = create_engine(
            url,
            hide_parameters=True,  # errors and logs must never show a stored deck
            pool_size=1,
            # A program using it from several threads at once (the tests) gets up to as many
            # more as the reads' pool keeps, each closed when returned: worth it for what
            # comes rarely, where each server process would otherwise keep them idle.
            max_overflow=settings.db_pool_size,
            pool_timeout=settings.db_pool_timeout,
            # No pre-ping (a round trip per request): a connection the server dropped fails
            # its request with 503, and SQLAlchemy then invalidates the pool's older
            # connections.
            pool_recycle=_RECYCLE_SECONDS,
        )
        # The tools' reads share the pool but run in autocommit: no BEGIN/COMMIT round trips
        # for one SELECT.
        read_engine = write_engine.execution_options(isolation_level="AUTOCOMMIT")
        concurrent_writes = settings.db_write_concurrency
        # The writes' pool: one connection for each write that may run at once (they take
        # turns for them), so a write never waits for the pool.
        async_engine = _loop_engine(url, settings, concurrent_writes)
        # Reads emit no BEGIN/COMMIT: a request reads one game or one page per statement.
        # FOURSQUARE_DB_POOL_SIZE connections (its description says why that many).
        async_read_engine = _loop_engine(url, settings, settings.db_pool_size, "AUTOCOMMIT")
    return Database(
        url=url,
        read_engine=read_engine,
        write_engine=write_engine,
        write_sessions=sessionmaker(write_engine, expire_on_commit=False),
        concurrent_writes=concurrent_writes,
        async_engine=async_engine,
        async_read_engine=async_read_engine,
    )
