"""Running the Alembic migrations from code (the app's start-up and the CLI)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

import migrations

MIGRATIONS_DIR = Path(migrations.__file__).resolve().parent


def alembic_config(database_url: str) -> Config:
    """An Alembic configuration for ``database_url``, independent of the working folder."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    config.attributes["configure_logging"] = False
    config.attributes["declarations"] = False  # upgrades and downgrades compare nothing
    return config


def upgrade(database_url: str, revision: str = "head") -> None:
    """Apply pending migrations up to ``revision``."""
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)
