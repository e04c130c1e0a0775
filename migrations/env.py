"""Alembic environment: the URL comes from the caller's config or ``FOURSQUARE_DATABASE_URL``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from logging.config import fileConfig

from alembic import context
from filelock import FileLock
from sqlalchemy import MetaData, create_engine, make_url, pool, text

from api.core.settings import CoreSettings
from api.tables import metadata

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def declarations() -> MetaData | None:
    """The tables as the code declares them, which autogenerate and ``alembic check`` compare
    with the database. Importing them imports every feature's package (each declares its
    own), so the service's own runs (:mod:`api.core.migrate`: upgrade, downgrade), which
    compare nothing, skip it: ``foursquare serve`` migrates before its metrics directory is
    chosen, and nothing may import prometheus_client before then (api/ops/metrics_files.py)."""
    if not config.attributes.get("declarations", True):
        return None

    return metadata


target_metadata = declarations()

# A fixed key for PostgreSQL's advisory lock, so that processes starting together migrate
# one at a time.
MIGRATION_LOCK_KEY = 0x466F75727371  # "Foursq"


def database_url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    return url if url else CoreSettings().database_url


# How long a start waits for another process's migrations before giving up (seconds): the
# longest migration of a big file, with room to spare.
SQLITE_LOCK_TIMEOUT = 600


@contextmanager
def sqlite_migration_lock(url: str) -> Iterator[None]:
    """One process at a time migrates a SQLite file, as PostgreSQL's advisory lock does below.

    SQLite has no such lock, and pysqlite commits each DDL statement on its own, so two
    servers started at once on a new file both ran the migrations, interleaved, and left the
    file half-migrated (``alembic_version`` behind tables that later revisions create). The
    lock is a file beside the database (``NAME.db.migrate-lock``, taken with ``flock`` by the
    filelock package: the kernel releases it when its holder dies, so a killed start leaves
    no stale lock); the second process waits, then finds nothing left to do. An in-memory
    database is one process's own and needs none; nor is a ``file:`` URI's locked (the
    service's URLs name plain paths).
    """
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    with FileLock(f"{database}.migrate-lock", timeout=SQLITE_LOCK_TIMEOUT):
        yield


def run_migrations_offline() -> None:
    context.configure(
        url=database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
        render_as_batch=True,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    url = database_url()
    engine = create_engine(url, poolclass=pool.NullPool)
    is_sqlite = engine.dialect.name == "sqlite"
    with sqlite_migration_lock(url) if is_sqlite else nullcontext(), engine.connect() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            connection.commit()
        if connection.dialect.name == "sqlite":
            # WAL is a property of the file, and switching to it takes the write lock. Made
            # here, once, by the schema's owner: servers that open a file still in rollback
            # mode switch it on their first connection, and two of them starting together
            # deadlock on that lock upgrade (one fails at once with "database is locked").
            connection.execute(text("PRAGMA journal_mode=WAL"))
            connection.commit()
        try:
            context.configure(
                connection=connection,
                target_metadata=target_metadata,
                render_as_batch=True,
                compare_type=True,
            )
            with context.begin_transaction():
                context.run_migrations()
        finally:
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY}
                )
                connection.commit()
    engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
