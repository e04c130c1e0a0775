"""Alembic environment: the URL comes from the caller's config or ``FOURSQUARE_DATABASE_URL``."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context
from sqlalchemy import create_engine, pool, text

from api.core.models import Base
from api.core.settings import Settings

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logging", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)
target_metadata = Base.metadata

# A fixed key for PostgreSQL's advisory lock, so that processes starting together migrate
# one at a time.
MIGRATION_LOCK_KEY = 0x466F75727371  # "Foursq"


def database_url() -> str:
    url = config.get_main_option("sqlalchemy.url")
    return url if url else Settings().database_url


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
    engine = create_engine(database_url(), poolclass=pool.NullPool)
    with engine.connect() as connection:
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
