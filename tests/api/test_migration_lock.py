"""Servers started at once on a new SQLite file migrate it one at a time (migrations/env.py's
file lock): every one of them starts, and the file ends exactly at the newest revision with
the models' schema, so that a later ``foursquare migrate`` has nothing to do."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine

from api.core import migrate
from api.tables import metadata
from testkit.server import ROOT, Server

pytestmark = pytest.mark.slow


def head_revision() -> str:
    head = ScriptDirectory.from_config(migrate.alembic_config("sqlite://")).get_current_head()
    assert head is not None
    return head


def schema_differences(url: str) -> list[object]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            context = MigrationContext.configure(
                connection, opts={"compare_type": True, "render_as_batch": True}
            )
            return list(compare_metadata(context, metadata))
    finally:
        engine.dispose()


@pytest.mark.parametrize("servers", [2, 4])
def test_servers_started_at_once_on_a_new_file_migrate_it_once(
    servers: int, tmp_path: Path
) -> None:
    path = tmp_path / "fresh.db"
    url = f"sqlite:///{path}"
    started = [
        Server(url, log_path=tmp_path / f"server-{number}.log", log_level="info")
        for number in range(servers)
    ]
    try:
        # Each start launches its process at once and then waits for it to answer /readyz,
        # so all of them are migrating the new file at the same time.
        with ThreadPoolExecutor(max_workers=servers) as pool:
            list(pool.map(lambda server: server.start(timeout=180), started))
    finally:
        for server in started:
            server.stop()
    with sqlite3.connect(path) as connection:
        versions = connection.execute("SELECT version_num FROM alembic_version").fetchall()
    assert versions == [(head_revision(),)]
    assert schema_differences(url) == []
    # The command an operator runs next finds nothing to do, and says nothing wrong.
    again = subprocess.run(
        [sys.executable, "-m", "api.cli", "migrate", "--database-url", url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    assert Path(f"{path}.migrate-lock").exists()  # the lock was taken beside the file
