"""Throwaway databases for tests: a migrated SQLite file or PostgreSQL database per test.

Each backend is migrated once per test session into a template; every test then gets its own
copy (a file copy for SQLite, ``CREATE DATABASE ... TEMPLATE`` for PostgreSQL), so tests are
isolated from each other and still fast.

PostgreSQL is the local server (``FOURSQUARE_TEST_POSTGRES_URL``, default
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``). Without it, PostgreSQL tests skip
with the reason, unless ``FOURSQUARE_TEST_REQUIRE_POSTGRES=1`` (as in CI), where they fail.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from api.core import migrate
from api.core.database import psycopg_conninfo

ADMIN_URL = os.environ.get(
    "FOURSQUARE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
)
REQUIRE_POSTGRES = os.environ.get("FOURSQUARE_TEST_REQUIRE_POSTGRES", "") not in ("", "0", "false")


def _admin_conninfo() -> str:
    return psycopg_conninfo(ADMIN_URL)


def postgres_unavailable_reason() -> str | None:
    """None if the PostgreSQL server answers, else why not."""
    try:
        with psycopg.connect(_admin_conninfo(), connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {make_url(ADMIN_URL).render_as_string()} does not answer: {exc}"
    return None


def _admin_execute(statement: sql.Composed) -> None:
    with psycopg.connect(_admin_conninfo(), autocommit=True) as conn:
        conn.execute(statement)


def postgres_url(database: str) -> str:
    return make_url(ADMIN_URL).set(database=database).render_as_string(hide_password=False)


def create_postgres_database(name: str, template: str | None = None) -> str:
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)
        )
    _admin_execute(statement)
    return postgres_url(name)


def drop_postgres_database(name: str) -> None:
    _admin_execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


class Templates:
    """Migrated template databases, made on first use and removed at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._sqlite: Path | None = None
        self._postgres: str | None = None

    def sqlite_template(self) -> Path:
        if self._sqlite is None:
            path = self.folder / "template.db"
            migrate.upgrade(f"sqlite:///{path}")
            self._sqlite = path
        return self._sqlite

    def postgres_template(self) -> str:
        if self._postgres is None:
            name = f"fs_template_{os.getpid()}_{uuid.uuid4().hex[:8]}"
            migrate.upgrade(create_postgres_database(name))
            self._postgres = name
        return self._postgres

    def close(self) -> None:
        if self._postgres is not None:
            drop_postgres_database(self._postgres)
            self._postgres = None

    @contextmanager
    def database(self, backend: str, folder: Path) -> Iterator[str]:
        """A fresh, migrated database of ``backend``; yields its URL."""
        if backend == "sqlite":
            path = folder / f"test-{uuid.uuid4().hex[:8]}.db"
            shutil.copyfile(self.sqlite_template(), path)
            yield f"sqlite:///{path}"
            return
        name = f"fs_test_{uuid.uuid4().hex[:12]}"
        url = create_postgres_database(name, template=self.postgres_template())
        try:
            yield url
        finally:
            drop_postgres_database(name)


def empty_database(backend: str, folder: Path) -> Iterator[str]:
    """A fresh database with no tables (for migration tests)."""
    if backend == "sqlite":
        yield f"sqlite:///{folder / f'empty-{uuid.uuid4().hex[:8]}.db'}"
        return
    name = f"fs_empty_{uuid.uuid4().hex[:12]}"
    url = create_postgres_database(name)
    try:
        yield url
    finally:
        drop_postgres_database(name)
