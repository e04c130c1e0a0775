"""Migrations: upgrade an empty database, agree with the models, downgrade to nothing."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from api.core import migrate
from api.tables import metadata
from testkit import databases

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_to_head_then_downgrade_to_base(empty_url: str) -> None:
    assert tables(empty_url) == set()
    migrate.upgrade(empty_url)
    assert {"games", "placements", "scores", "alembic_version"} <= tables(empty_url)
    migrate.downgrade(empty_url, "base")
    assert tables(empty_url) <= {"alembic_version"}
    migrate.upgrade(empty_url)  # and back up again
    assert {"games", "placements", "scores"} <= tables(empty_url)


def test_models_and_migrations_agree(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "render_as_batch": True}
            )
            diff = compare_metadata(context, metadata)
    finally:
        engine.dispose()
    assert diff == []


def test_alembic_command_line_works_on_its_own(empty_url: str) -> None:
    env = {"FOURSQUARE_DATABASE_URL": empty_url, "PATH": ""}
    alembic = [sys.executable, "-m", "alembic"]
    for args in (["upgrade", "head"], ["check"], ["downgrade", "base"]):
        result = subprocess.run(
            [*alembic, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
        )
        assert result.returncode == 0, result.stderr


def test_a_migrated_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    # Servers starting together on a file still in rollback mode would each switch it to WAL
    # on their first connection and deadlock on the lock upgrade; migrating switches it once.
    path = tmp_path / "fresh.db"
    migrate.upgrade(f"sqlite:///{path}")
    with sqlite3.connect(path) as connection:
        # Bytes 18 and 19 of the header are 2 for WAL (1 for a rollback journal).
        assert path.read_bytes()[18:20] == b"\x02\x02"
        assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)
