"""Database engines and sessions.

SQLite gets WAL mode and a busy timeout, and two engines: writes go through a one-connection
pool whose transactions start with ``BEGIN IMMEDIATE`` (so writers queue in the process instead
of busy-waiting on SQLite's single write lock, and a read-then-write transaction can never fail
to upgrade its lock), while reads use a larger pool in autocommit mode. PostgreSQL uses one
pool for both, reads in autocommit.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session, sessionmaker

from api.settings import Settings


@dataclass(frozen=True)
class Database:
    """The engines and session factories of one app instance."""

    url: str
    read_engine: Engine
    write_engine: Engine
    read_sessions: sessionmaker[Session]
    write_sessions: sessionmaker[Session]

    @property
    def is_sqlite(self) -> bool:
        return self.read_engine.dialect.name == "sqlite"

    @contextmanager
    def transaction(self, *, write: bool) -> Iterator[Session]:
        """A session whose transaction commits on success and rolls back on any error."""
        factory = self.write_sessions if write else self.read_sessions
        with factory() as session, session.begin():
            yield session

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


def create_database(settings: Settings) -> Database:
    """Engines and session factories for ``settings.database_url`` (nothing at import time)."""
    url = settings.database_url
    if make_url(url).get_backend_name() == "sqlite":
        read_engine = _sqlite_engine(
            url, settings, immediate=False, pool_size=settings.db_pool_size
        )
        write_engine = _sqlite_engine(url, settings, immediate=True, pool_size=1)
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
    return Database(
        url=url,
        read_engine=read_engine,
        write_engine=write_engine,
        read_sessions=sessionmaker(read_engine, expire_on_commit=False),
        write_sessions=sessionmaker(write_engine, expire_on_commit=False),
    )
