"""Throwaway databases for tests and benchmarks: migrated SQLite files and PostgreSQL
databases, made for one test or one measurement and removed afterwards.

A benchmark takes one with :func:`throwaway_database`. The tests take many, so each backend is
migrated once per test session into a template (:class:`Templates`): every test then gets a
database of its own, as the template left it (a file copy for SQLite; for PostgreSQL, a
database made with ``CREATE DATABASE ... TEMPLATE`` and, between tests, emptied and given the
template's rows again), so tests are isolated from each other and fast.

PostgreSQL is the local server (``FOURSQUARE_TEST_POSTGRES_URL``, default
``postgresql+psycopg://postgres@127.0.0.1:5432/postgres``; a benchmark's ``--postgres-url``
names another). Without it, PostgreSQL tests skip with the reason, unless
``FOURSQUARE_TEST_REQUIRE_POSTGRES=1`` (as in CI), where they fail.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
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


def postgres_unavailable_reason(admin_url: str = ADMIN_URL) -> str | None:
    """None if the PostgreSQL server of ``admin_url`` answers, else why not."""
    try:
        with psycopg.connect(
            psycopg_conninfo(admin_url), connect_timeout=3, autocommit=True
        ) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {make_url(admin_url).render_as_string()} does not answer: {exc}"
    return None


def _admin_execute(statement: sql.Composed, admin_url: str = ADMIN_URL) -> None:
    with psycopg.connect(psycopg_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(statement)


def postgres_url(database: str, admin_url: str = ADMIN_URL) -> str:
    """The URL of database ``database`` on the server of ``admin_url``."""
    return make_url(admin_url).set(database=database).render_as_string(hide_password=False)


def create_postgres_database(
    name: str, template: str | None = None, admin_url: str = ADMIN_URL
) -> str:
    statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
    if template:
        statement = sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
            sql.Identifier(name), sql.Identifier(template)
        )
    _admin_execute(statement, admin_url)
    return postgres_url(name, admin_url)


def drop_postgres_database(name: str, admin_url: str = ADMIN_URL) -> None:
    _admin_execute(
        sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)),
        admin_url,
    )


def sessions_opened(url: str, admin_url: str = ADMIN_URL) -> int:
    """How many sessions PostgreSQL has opened on the database of ``url`` since its
    statistics began (``pg_stat_database.sessions``), read over a connection to the database
    of ``admin_url``, so that reading them opens none there. A backend counts its session
    before it first tells its client that it is ready for a query (or, if another backend
    holds the statistics' lock then, when it is next idle, within seconds)."""
    with psycopg.connect(psycopg_conninfo(admin_url), autocommit=True) as conn:
        row = conn.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s",
            (make_url(url).database,),
        ).fetchone()
    return int(row[0]) if row else 0


@contextmanager
def throwaway_database(backend: str, admin_url: str = ADMIN_URL) -> Iterator[str]:
    """A new database with the migrations applied, removed afterwards; yields its URL.

    SQLite: a file in a temporary folder. PostgreSQL: ``fs_bench_<pid>_<random>`` on the
    server of ``admin_url``, dropped with ``WITH (FORCE)`` whatever happens.
    """
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="foursquare-bench-") as folder:
            url = f"sqlite:///{Path(folder) / 'bench.db'}"
            migrate.upgrade(url)
            yield url
        return
    if backend != "postgresql":
        raise ValueError(f"unknown backend {backend!r}")
    name = f"fs_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    url = create_postgres_database(name, admin_url=admin_url)
    try:
        migrate.upgrade(url)
        yield url
    finally:
        drop_postgres_database(name, admin_url)


# What makes two databases "the same schema": every relation, column, constraint and
# trigger of the public schema, and the migration they are at.
_SCHEMA = """
SELECT md5(concat_ws('|',
    (SELECT string_agg(
        c.relname || ':' || c.relkind::text || ':' || coalesce(a.attname, '') || ':'
            || coalesce(format_type(a.atttypid, a.atttypmod), '') || ':'
            || coalesce(a.attnotnull::text, ''),
        ',' ORDER BY c.relname, a.attnum)
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public'),
    (SELECT string_agg(conname || ':' || pg_get_constraintdef(oid), ',' ORDER BY conname)
     FROM pg_constraint WHERE connamespace = 'public'::regnamespace),
    (SELECT string_agg(tgname, ',' ORDER BY tgname) FROM pg_trigger WHERE NOT tgisinternal),
    (SELECT string_agg(version_num, ',') FROM alembic_version)))
"""


@dataclass(frozen=True)
class _Contents:
    """What a migrated PostgreSQL database holds before any test: its schema's fingerprint,
    the rows the migrations wrote (COPY text, per table) and its sequences' positions."""

    schema: str
    tables: tuple[str, ...]
    rows: dict[str, bytes]
    sequences: dict[str, tuple[int, bool]]

    @classmethod
    def of(cls, url: str) -> _Contents:
        with psycopg.connect(psycopg_conninfo(url), autocommit=True) as conn:
            schema = conn.execute(_SCHEMA).fetchone()
            tables = [
                name
                for (name,) in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                    " AND tablename <> 'alembic_version' ORDER BY tablename"
                )
            ]
            rows = {}
            for table in tables:
                copied = sql.SQL("COPY {} TO STDOUT").format(sql.Identifier(table))
                with conn.cursor().copy(copied) as copy:
                    data = b"".join(bytes(chunk) for chunk in copy)
                if data:
                    rows[table] = data
            sequences = {}
            for (name,) in conn.execute(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            ):
                position = sql.SQL("SELECT last_value, is_called FROM {}").format(
                    sql.Identifier(name)
                )
                last, called = conn.execute(position).fetchone() or (1, False)
                sequences[name] = (int(last), bool(called))
        assert schema is not None
        return cls(str(schema[0]), tuple(tables), rows, sequences)

    def restore(self, url: str) -> bool:
        """Empty the tables of the database at ``url`` and write back the migrations' rows;
        False (nothing done) if its schema is not this one (a test changed it)."""
        with psycopg.connect(psycopg_conninfo(url), autocommit=True) as conn:
            schema = conn.execute(_SCHEMA).fetchone()
            if schema is None or schema[0] != self.schema:
                return False
            with conn.transaction():
                conn.execute("SET LOCAL lock_timeout = '10s'")
                conn.execute(
                    sql.SQL("TRUNCATE {} RESTART IDENTITY").format(
                        sql.SQL(", ").join(map(sql.Identifier, self.tables))
                    )
                )
                for table, data in self.rows.items():
                    copied = sql.SQL("COPY {} FROM STDIN").format(sql.Identifier(table))
                    with conn.cursor().copy(copied) as copy:
                        copy.write(data)
                for name, (last, called) in self.sequences.items():
                    conn.execute("SELECT setval(%s, %s, %s)", (name, last, called))
        return True


class Templates:
    """Migrated template databases, made on first use and removed at the end.

    A PostgreSQL test gets a database of its own, as fresh as a copy of the template, but
    not a new copy each time: ``CREATE DATABASE`` and ``DROP DATABASE`` cost up to a second
    each on a busy machine (the drop waits for a checkpoint) for each of some 300 tests.
    When a test ends, its database is taken from everything that used it (its sessions are
    terminated and it is renamed, so a process left over from the test cannot reach it
    again), emptied (``TRUNCATE``) and given back the rows the migrations wrote, then handed
    to the next test. A database whose schema a test changed is dropped instead.
    """

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._sqlite: Path | None = None
        self._postgres: str | None = None
        self._contents: _Contents | None = None
        self._ready: list[str] = []  # emptied databases, for the next tests

    @property
    def waiting(self) -> int:
        """How many emptied PostgreSQL databases wait for the next tests."""
        return len(self._ready)

    def sqlite_template(self) -> Path:
        if self._sqlite is None:
            path = self.folder / "template.db"
            migrate.upgrade(f"sqlite:///{path}")
            self._sqlite = path
        return self._sqlite

    def postgres_template(self) -> str:
        if self._postgres is None:
            name = f"fs_template_{os.getpid()}_{uuid.uuid4().hex[:8]}"
            url = create_postgres_database(name)
            migrate.upgrade(url)
            self._contents = _Contents.of(url)
            self._postgres = name
        return self._postgres

    def close(self) -> None:
        while self._ready:
            drop_postgres_database(self._ready.pop())
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
        template = self.postgres_template()
        if self._ready:
            name = self._ready.pop()
        else:
            name = f"fs_test_{uuid.uuid4().hex[:12]}"
            create_postgres_database(name, template=template)
        try:
            yield postgres_url(name)
        finally:
            self._give_back(name)

    def _give_back(self, name: str) -> None:
        """Empty the database for the next test, or drop it if that cannot be done."""
        assert self._contents is not None
        renamed = f"fs_test_{uuid.uuid4().hex[:12]}"
        try:
            _take_away(name, renamed)
        except psycopg.Error:
            drop_postgres_database(name)
            return
        try:
            restored = self._contents.restore(postgres_url(renamed))
        except psycopg.Error:
            restored = False
        if restored:
            self._ready.append(renamed)
        else:
            drop_postgres_database(renamed)


def _take_away(name: str, new_name: str, timeout: float = 10.0) -> None:
    """End every session on database ``name`` and rename it ``new_name`` (a rename needs no
    session on it, and leaves nothing able to reconnect by the old name)."""
    rename = sql.SQL("ALTER DATABASE {} RENAME TO {}").format(
        sql.Identifier(name), sql.Identifier(new_name)
    )
    deadline = time.monotonic() + timeout
    with psycopg.connect(psycopg_conninfo(ADMIN_URL), autocommit=True) as conn:
        while True:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND pid <> pg_backend_pid()",
                (name,),
            )
            try:
                conn.execute(rename)
                return
            except psycopg.errors.ObjectInUse:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.02)


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
