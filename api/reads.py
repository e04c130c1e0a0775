"""The public reads, on the event loop: a game, its history, a leaderboard page.

These are the service's busiest requests and each is one ``SELECT``, so they skip what a
database call from a ``def`` route costs: the hop to a worker thread and back, the ORM session
and SQLAlchemy's per-row result processing (which took longer than the query itself on a
100-row leaderboard page). They run hand-written SQL on the driver and convert the few column
types themselves, into the records of :mod:`api.repository`. Every write still goes through
SQLAlchemy in a worker thread (:meth:`api.db.Database.write`).

SQLite: one connection per process, used only by the event-loop thread, read-only, in
autocommit (every statement is its own snapshot, fetched whole, so no read transaction stays
open). In WAL mode a reader is not blocked by writers; in the rare moment it is (another process
recovering the database, say), the loop does not wait: the read is retried in a worker thread
on a pooled connection, which waits with the normal busy timeout.

PostgreSQL: a few connections of the event loop's own, in autocommit, each read one prepared
statement sent over libpq (:mod:`api.pg_loop`: psycopg's pool and cursors took as much CPU as
the rest of the request).
"""

from __future__ import annotations

import json
import re
import sqlite3
import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from api.pg_loop import LoopPool, Row, statement
from api.repository import GameRecord, LeaderboardKey, PlacementRecord, ScoreRecord

GAME = f"SELECT {', '.join(GameRecord._fields)} FROM games WHERE id = :id"
# What GET /games/{id} sends: the version (its ETag) and the JSON stored with it.
PUBLIC_GAME = "SELECT version, public_json FROM games WHERE id = :id"
# One statement for a history: no row at all if the game does not exist, one row of NULLs if it
# has no placements yet.
HISTORY = (
    'SELECT p.number, p."row", p.col, p.card, p.flipped, p.status_after, p.created_at'
    " FROM games AS g LEFT JOIN placements AS p ON p.game_id = g.id"
    " WHERE g.id = :id ORDER BY p.number"
)
_SCORES = f"SELECT {', '.join(ScoreRecord._fields)} FROM scores"
_AFTER = "(sort_score, finished_at, game_id) > (:sort_score, :finished_at, :game_id)"
_ORDER = " ORDER BY sort_score, finished_at, game_id LIMIT :limit"
# (include_assisted, after a cursor) -> SQL. Each is one range scan of ix_scores_leaderboard,
# or of ix_scores_leaderboard_by_assistance for the default listing (unassisted games only).
LEADERBOARD = {
    (True, False): _SCORES + _ORDER,
    (True, True): _SCORES + " WHERE " + _AFTER + _ORDER,
    (False, False): _SCORES + " WHERE assisted = :assisted" + _ORDER,
    (False, True): _SCORES + " WHERE assisted = :assisted AND " + _AFTER + _ORDER,
}

# A number the database bumps whenever scores changes (migration 0004's triggers).
REVISION = "SELECT revision FROM leaderboard_revision WHERE id = 1"

# Called with the SQL and the parameters of a statement, as the driver gets them.
StatementListener = Callable[[str, dict[str, Any]], None]


class Reads(ABC):
    """The public reads of one app instance (see the module docstring)."""

    def __init__(self) -> None:
        # Called with each statement before it runs (tests and the benchmarks listen here).
        self.listeners: list[StatementListener] = []

    @abstractmethod
    async def open(self) -> None:
        """Connect; called by the app's lifespan, on the event loop that will serve."""

    @abstractmethod
    async def close(self) -> None:
        """Disconnect; called by the app's lifespan."""

    async def game(self, game_id: uuid.UUID) -> GameRecord | None:
        rows = await self._fetch(GAME, {"id": game_id})
        return self._game(rows[0]) if rows else None

    async def public_game(self, game_id: uuid.UUID) -> tuple[int, str | None] | None:
        """A game's version and stored public JSON (None for a game stored before there was
        such a column), or None if there is no such game."""
        rows = await self._fetch(PUBLIC_GAME, {"id": game_id})
        return (int(rows[0][0]), rows[0][1]) if rows else None

    async def history(self, game_id: uuid.UUID) -> list[PlacementRecord] | None:
        """The game's placements in order, or None if there is no such game."""
        rows = await self._fetch(HISTORY, {"id": game_id})
        if not rows:
            return None
        return [self._placement(row) for row in rows if row[0] is not None]

    async def leaderboard(
        self, after: LeaderboardKey | None, limit: int, *, include_assisted: bool
    ) -> list[ScoreRecord]:
        params: dict[str, Any] = {"limit": limit}
        if not include_assisted:
            params["assisted"] = False
        if after is not None:
            params["sort_score"], params["finished_at"], params["game_id"] = after
        sql = LEADERBOARD[include_assisted, after is not None]
        return [self._score(row) for row in await self._fetch(sql, params)]

    async def leaderboard_revision(self) -> int:
        """A number the database bumps whenever ``scores`` changes (see migration 0004)."""
        rows = await self._fetch(REVISION, {})
        return int(rows[0][0])

    def _notify(self, sql: str, params: dict[str, Any]) -> None:
        for listener in self.listeners:
            listener(sql, params)

    @abstractmethod
    async def _fetch(self, sql: str, params: dict[str, Any]) -> Sequence[Sequence[Any]]:
        """All rows of one statement (``sql`` in the ``:name`` parameter style)."""

    # Column conversions: what the driver returns -> what the records hold.
    @abstractmethod
    def _game(self, row: Sequence[Any]) -> GameRecord: ...

    @abstractmethod
    def _placement(self, row: Sequence[Any]) -> PlacementRecord: ...

    @abstractmethod
    def _score(self, row: Sequence[Any]) -> ScoreRecord: ...


class SqliteReads(Reads):
    """SQLite: one read-only connection used by the event-loop thread only."""

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self._engine = engine  # the service's read engine: the fallback for a locked database
        self._connection: sqlite3.Connection | None = None

    async def open(self) -> None:
        # A connection made by the read engine (so it has the engine's URL handling and
        # pragmas), taken out of its pool for good.
        fairy = self._engine.raw_connection()
        connection = fairy.driver_connection
        fairy.detach()
        assert isinstance(connection, sqlite3.Connection)
        connection.execute("PRAGMA query_only = ON")
        # Never stall the loop on a lock: report it at once (and retry in a worker thread).
        connection.execute("PRAGMA busy_timeout = 0")
        self._connection = connection

    async def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    async def _fetch(self, sql: str, params: dict[str, Any]) -> Sequence[Sequence[Any]]:
        params = _sqlite_params(params)
        self._notify(sql, params)
        if self._connection is None:
            raise RuntimeError("SqliteReads used before open()")
        try:
            return _fetch_all(self._connection, sql, params)
        except sqlite3.OperationalError as exc:
            if not _is_locked(exc):
                raise
        return await run_in_threadpool(self._fetch_waiting, sql, params)

    def _fetch_waiting(self, sql: str, params: dict[str, Any]) -> list[Any]:
        """The same read on a pooled connection, which waits for a lock (in a worker thread)."""
        fairy = self._engine.raw_connection()
        try:
            connection = fairy.driver_connection
            assert isinstance(connection, sqlite3.Connection)
            return _fetch_all(connection, sql, params)
        finally:
            fairy.close()

    def _game(self, row: Sequence[Any]) -> GameRecord:
        (game_id, player, token_hash, salt, commitment, state, version, assisted) = row[:8]
        created_at, updated_at, finished_at, public_json = row[8:]
        return GameRecord(
            uuid.UUID(hex=game_id),
            player,
            token_hash,
            salt,
            commitment,
            state,
            version,
            bool(assisted),
            _sqlite_time(created_at),
            _sqlite_time(updated_at),
            None if finished_at is None else _sqlite_time(finished_at),
            public_json,
        )

    def _placement(self, row: Sequence[Any]) -> PlacementRecord:
        number, at_row, at_col, card, flipped, status_after, created_at = row
        created = _sqlite_time(created_at)
        return PlacementRecord(
            number, at_row, at_col, card, json.loads(flipped), status_after, created
        )

    def _score(self, row: Sequence[Any]) -> ScoreRecord:
        game_id, player, score, sort_score, finished_at, assisted = row
        finished = _sqlite_time(finished_at)
        return ScoreRecord(
            uuid.UUID(hex=game_id), player, score, sort_score, finished, bool(assisted)
        )


def _fetch_all(connection: sqlite3.Connection, sql: str, params: dict[str, Any]) -> list[Any]:
    # fetchall() steps the statement to its end, which ends its implicit read transaction.
    cursor = connection.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _is_locked(exc: sqlite3.OperationalError) -> bool:
    return getattr(exc, "sqlite_errorcode", None) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


# How SQLAlchemy stores these types in SQLite: a UUID as 32 hex digits, a timestamp as UTC text
# "YYYY-MM-DD HH:MM:SS.ffffff" (see api.models.UTCDateTime), a boolean as 0 or 1.
_SQLITE_TIME_FORMAT = "%Y-%m-%d %H:%M:%S.%f"


def _sqlite_time(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=UTC)


def _sqlite_params(params: dict[str, Any]) -> dict[str, Any]:
    converted = dict(params)
    for name, value in params.items():
        if isinstance(value, uuid.UUID):
            converted[name] = value.hex
        elif isinstance(value, datetime):
            converted[name] = value.astimezone(UTC).strftime(_SQLITE_TIME_FORMAT)
    return converted


class PostgresReads(Reads):
    """PostgreSQL: connections of the event loop's own (:mod:`api.pg_loop`), in autocommit."""

    def __init__(self, conninfo: str, *, size: int, timeout: float) -> None:
        super().__init__()
        self._pool = LoopPool(conninfo, size=size, timeout=timeout)

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def _fetch(self, sql: str, params: dict[str, Any]) -> Sequence[Row]:
        if self.listeners:
            self._notify(_pyformat(sql), params)  # what a psycopg cursor would run
        return await self._pool.fetch(statement(sql), params)

    def _game(self, row: Sequence[Any]) -> GameRecord:
        record = GameRecord(*row)
        return record._replace(
            created_at=record.created_at.astimezone(UTC),
            updated_at=record.updated_at.astimezone(UTC),
            finished_at=None if record.finished_at is None else record.finished_at.astimezone(UTC),
        )

    def _placement(self, row: Sequence[Any]) -> PlacementRecord:
        record = PlacementRecord(*row)
        return record._replace(created_at=record.created_at.astimezone(UTC))

    def _score(self, row: Sequence[Any]) -> ScoreRecord:
        record = ScoreRecord(*row)
        return record._replace(finished_at=record.finished_at.astimezone(UTC))


_PYFORMAT_CACHE: dict[str, str] = {}


def _pyformat(sql: str) -> str:
    """``:name`` parameters to psycopg's ``%(name)s`` (a ``::`` cast is left alone)."""
    converted = _PYFORMAT_CACHE.get(sql)
    if converted is None:
        converted = _PYFORMAT_CACHE[sql] = re.sub(r"(?<!:):(\w+)", r"%(\1)s", sql)
    return converted
