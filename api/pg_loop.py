"""PostgreSQL connections for the public reads on the event loop, and how a read runs on one.

A public read is one prepared statement on one connection. Through psycopg's asynchronous
pool and cursors (a checkout and a return, a cursor, the query converted each time, an event
per wait) a ``GET /games/{id}`` cost 953,548-964,624 CPU instructions, against 628,220-663,278
this way and about 555,000 for ``GET /healthz`` (``bench/request_cost.py --backend postgresql
--kinds healthz,read``). This module keeps what those layers give the reads and drops the
rest:

* :class:`LoopPool` hands connections out, last returned first (the warmest), and makes them
  on demand up to its size. A caller that finds none free waits its turn, first come first
  served; after ``timeout`` seconds it gets :class:`LoopPoolTimeout` (a 503, as any
  ``psycopg.OperationalError``). A connection found broken is closed and replaced. A read is
  idempotent, so one that met a broken connection it had not just made (a server restart or
  an administrator's ``pg_terminate_backend`` drops idle connections unseen) is retried once
  on a new one, after closing the other idle connections, which such events break together.
* :class:`LoopConnection` runs a statement over libpq (:mod:`psycopg.pq`): prepared once per
  connection under a name shared by all of them, parameters sent as text (the server infers
  their types from the statement), results read as text and converted by the loaders psycopg
  itself would use (its adapters map), so the values are the same as through a cursor.
  A statement whose result type a migration changed ("cached plan must not change result
  type") is prepared again, once.

Everything here runs on the event loop's thread; nothing in it is thread-safe, nor needs to be.
Writes keep SQLAlchemy and their own pool, in worker threads (:mod:`api.db`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import psycopg
from psycopg import errors, pq

log = logging.getLogger("foursquare.api.pg_loop")  # under api.errors' "foursquare.api"

Row = tuple[Any, ...]
Load = Callable[[bytes], Any]


class LoopPoolTimeout(psycopg.OperationalError):
    """No connection came free in time (the service answers 503 and says when to retry)."""


@dataclass(frozen=True)
class Statement:
    """A statement as libpq takes it: numbered parameters, and the names they come from."""

    name: bytes  # the prepared statement's name, the same on every connection
    sql: bytes
    parameters: tuple[str, ...]

    def values(self, params: dict[str, Any]) -> list[bytes | None]:
        return [_text(params[name]) for name in self.parameters]


_STATEMENTS: dict[str, Statement] = {}


def statement(sql: str) -> Statement:
    """``sql`` in the ``:name`` parameter style as a :class:`Statement` (made once per text)."""
    found = _STATEMENTS.get(sql)
    if found is None:
        names: list[str] = []

        def number(match: re.Match[str]) -> str:
            if match.group(1) not in names:
                names.append(match.group(1))
            return f"${names.index(match.group(1)) + 1}"

        numbered = re.sub(r"(?<!:):(\w+)", number, sql)
        name = f"foursquare_read_{len(_STATEMENTS) + 1}".encode()
        found = _STATEMENTS[sql] = Statement(name, numbered.encode(), tuple(names))
    return found


def _text(value: Any) -> bytes | None:
    """A parameter in PostgreSQL's text input format."""
    if value is None:
        return None
    if isinstance(value, bool):  # before int: a bool is an int
        return b"t" if value else b"f"
    if isinstance(value, int | float | str | uuid.UUID):
        return str(value).encode()
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ValueError("a timestamp parameter must carry its time zone")
        return value.isoformat().encode()
    raise TypeError(f"no text form for a parameter of type {type(value).__name__}")


class LoopConnection:
    """One connection, used by one read at a time, with the statements prepared on it."""

    def __init__(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self.connection = connection
        self.pgconn = connection.pgconn
        self.reads = 0  # statements run to the end on it
        self._prepared: set[bytes] = set()
        self._loads: dict[int, Load] = {}

    @property
    def idle(self) -> bool:
        """Open, with nothing sent that has not been answered in full."""
        return (
            self.pgconn.status == pq.ConnStatus.OK
            and self.pgconn.transaction_status == pq.TransactionStatus.IDLE
        )

    async def fetch(self, statement: Statement, values: Sequence[bytes | None]) -> list[Row]:
        """All rows of ``statement`` run with ``values``."""
        try:
            result = await self._run(statement, values)
        except errors.FeatureNotSupported as exc:
            # "cached plan must not change result type": a migration changed the type of a
            # column the statement returns. Prepare it again, once.
            if statement.name not in self._prepared or "cached plan" not in str(exc):
                raise
            self._prepared.discard(statement.name)
            self.pgconn.send_query(b"DEALLOCATE " + statement.name)
            self._check(await self._results(), pq.ExecStatus.COMMAND_OK)
            result = await self._run(statement, values)
        loads = [self._load(result.ftype(column)) for column in range(result.nfields)]
        rows = [
            tuple(
                None if (value := result.get_value(row, column)) is None else load(value)
                for column, load in enumerate(loads)
            )
            for row in range(result.ntuples)
        ]
        self.reads += 1
        return rows

    async def _run(self, statement: Statement, values: Sequence[bytes | None]) -> pq.abc.PGresult:
        pgconn = self.pgconn
        if statement.name not in self._prepared:
            pgconn.send_prepare(statement.name, statement.sql)
            self._check(await self._results(), pq.ExecStatus.COMMAND_OK)
            self._prepared.add(statement.name)
        pgconn.send_query_prepared(statement.name, values)
        return self._check(await self._results(), pq.ExecStatus.TUPLES_OK)

    def close(self) -> None:
        # What AsyncConnection.close() does, without a coroutine: libpq's PQfinish.
        self.pgconn.finish()

    def _load(self, oid: int) -> Load:
        load = self._loads.get(oid)
        if load is None:
            loader = self.connection.adapters.get_loader(oid, pq.Format.TEXT)
            if loader is None:  # a type psycopg does not know: its text, as psycopg gives it
                loader = self.connection.adapters.get_loader(0, pq.Format.TEXT)
            assert loader is not None
            load = self._loads[oid] = loader(oid, self.connection).load
        return load

    def _check(self, results: list[pq.abc.PGresult], status: pq.ExecStatus) -> pq.abc.PGresult:
        for result in results:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                sqlstate = (result.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
                message = (result.error_message or b"").decode(errors="replace").strip()
                try:
                    kind = errors.lookup(sqlstate) if sqlstate else psycopg.OperationalError
                except KeyError:
                    kind = psycopg.DatabaseError
                raise kind(message)
        if len(results) != 1 or results[0].status != status:
            found = [pq.ExecStatus(result.status).name for result in results]
            raise psycopg.InterfaceError(f"expected one {status.name} result, got {found}")
        return results[0]

    async def _results(self) -> list[pq.abc.PGresult]:
        """Send what is queued, then read every result of it (libpq in non-blocking mode)."""
        pgconn = self.pgconn
        while pgconn.flush():
            await self._ready(write=True)
        results: list[pq.abc.PGresult] = []
        while True:
            pgconn.consume_input()
            while not pgconn.is_busy():
                result = pgconn.get_result()
                if result is None:
                    return results
                results.append(result)
            await self._ready(write=False)

    async def _ready(self, *, write: bool) -> None:
        """Wait until the socket can be written or has something to read."""
        loop = asyncio.get_running_loop()
        ready = loop.create_future()
        fd = self.pgconn.socket
        add, remove = (
            (loop.add_writer, loop.remove_writer)
            if write
            else (loop.add_reader, loop.remove_reader)
        )
        add(fd, _wake, ready)
        try:
            await ready
        finally:
            remove(fd)


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


class LoopPool:
    """Up to ``size`` connections to ``conninfo`` for the event loop (see the module docstring)."""

    def __init__(self, conninfo: str, *, size: int, timeout: float) -> None:
        if size < 1:
            raise ValueError("a pool needs at least one connection")
        self._conninfo = conninfo
        self._size = size
        self._timeout = timeout
        self._idle: list[LoopConnection] = []  # a stack: the last returned goes out first
        # Callers waiting for a connection, oldest first. Each is given one, or None: "a place
        # is yours, make your own connection" (the place stays counted in _places).
        self._waiters: deque[asyncio.Future[LoopConnection | None]] = deque()
        self._places = 0  # connections open (in use or idle) or being made
        self._closed = False

    async def open(self) -> None:
        """Make the first connection now, so the first read does not wait for it; a server
        that does not answer yet is not an error here (reads answer 503 until it does)."""
        self._closed = False
        try:
            self._release(await self._connect(counted=False))
        except psycopg.OperationalError as exc:
            log.warning("PostgreSQL did not answer at start-up: %s", exc)

    async def close(self) -> None:
        """Close the idle connections; those in use are closed as they come back."""
        self._closed = True
        self._discard_idle()

    async def fetch(self, statement: Statement, params: dict[str, Any]) -> list[Row]:
        """All rows of ``statement`` with ``params``, on the first connection free."""
        values = statement.values(params)
        for attempt in (1, 2):
            connection = await self._acquire()
            try:
                rows = await connection.fetch(statement, values)
            except BaseException as exc:
                if connection.idle:  # an error in the statement: the connection is fine
                    self._release(connection)
                    raise
                reused = connection.reads > 0
                self._discard(connection)
                if attempt == 1 and reused and isinstance(exc, psycopg.OperationalError):
                    log.warning("a PostgreSQL connection was broken (%s); reading again", exc)
                    self._discard_idle()
                    continue
                raise
            self._release(connection)
            return rows
        raise AssertionError("unreachable")  # pragma: no cover

    async def _acquire(self) -> LoopConnection:
        if self._closed:
            raise psycopg.OperationalError("the connection pool is closed")
        if self._idle:
            return self._idle.pop()
        if self._places < self._size:
            return await self._connect(counted=False)
        waiter: asyncio.Future[LoopConnection | None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(self._timeout):
                given = await waiter
        except BaseException as exc:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
            elif waiter.done() and not waiter.cancelled():
                # Given a connection or a place in the moment its time ran out: pass it on.
                given = waiter.result()
                if given is None:
                    self._free_place()
                else:
                    self._release(given)
            if isinstance(exc, TimeoutError):
                raise LoopPoolTimeout(
                    f"no connection came free within {self._timeout:g} s ({self._size} in use)"
                ) from None
            raise
        return given if given is not None else await self._connect(counted=True)

    async def _connect(self, *, counted: bool) -> LoopConnection:
        """A new connection, in a place already counted for it or in a new one."""
        if not counted:
            self._places += 1
        try:
            connection = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        except BaseException:
            self._free_place()
            raise
        return LoopConnection(connection)

    def _release(self, connection: LoopConnection) -> None:
        """Give a connection back: to the oldest caller waiting, or to the idle ones."""
        if self._closed:
            self._discard(connection)
        elif not self._hand_over(connection):
            self._idle.append(connection)

    def _discard(self, connection: LoopConnection) -> None:
        connection.close()
        self._free_place()

    def _free_place(self) -> None:
        """A connection has gone (or was never made): its place to the oldest caller waiting."""
        if not self._hand_over(None):
            self._places -= 1

    def _hand_over(self, given: LoopConnection | None) -> bool:
        """Give a connection (or, with None, a place) to the oldest caller still waiting."""
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(given)
                return True
        return False

    def _discard_idle(self) -> None:
        idle, self._idle = self._idle, []
        for connection in idle:
            self._discard(connection)
