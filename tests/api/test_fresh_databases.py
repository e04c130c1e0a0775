"""The suite's PostgreSQL databases (testkit/databases.py): a database handed to a test
after another test used it holds exactly what a new copy of the migrated template holds."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from api.core.database import psycopg_conninfo
from testkit import databases

pytestmark = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


def _contents(url: str) -> dict[str, bytes]:
    """Every table's rows (COPY text, in key order) and every sequence's position."""
    found: dict[str, bytes] = {}
    with psycopg.connect(psycopg_conninfo(url), autocommit=True) as conn:
        tables = conn.execute(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
        ).fetchall()
        for (table,) in tables:
            copied = sql.SQL("COPY (SELECT * FROM {} ORDER BY 1) TO STDOUT").format(
                sql.Identifier(table)
            )
            with conn.cursor().copy(copied) as copy:
                found[table] = b"".join(bytes(chunk) for chunk in copy)
        for (name,) in conn.execute("SELECT sequencename FROM pg_sequences").fetchall():
            position = sql.SQL("SELECT last_value, is_called FROM {}").format(sql.Identifier(name))
            found[name] = repr(conn.execute(position).fetchone()).encode()
    return found


def _games(url: str) -> int:
    with psycopg.connect(psycopg_conninfo(url)) as conn:
        row = conn.execute("SELECT count(*) FROM games").fetchone()
        assert row is not None
        return int(row[0])


def test_a_used_database_comes_back_as_the_template_left_it(backend: str, tmp_path: Path) -> None:
    templates = databases.Templates(tmp_path)
    try:
        fresh = _contents(databases.postgres_url(templates.postgres_template()))
        assert fresh["service_secrets"] and fresh["leaderboard_totals"]  # rows to give back
        with templates.database(backend, tmp_path) as url:
            first = url
            held = psycopg.connect(psycopg_conninfo(url))  # a session the test leaves open
            with held.transaction():
                held.execute("DELETE FROM service_secrets")
                held.execute("UPDATE leaderboard_totals SET wins = wins + 7")
                held.execute("SELECT nextval('leaderboard_revision_id_seq')")
            held.execute("SELECT 1")
        assert templates.waiting == 1
        with templates.database(backend, tmp_path) as url:
            assert url != first  # renamed: what the last test left running cannot reach it
            assert _contents(url) == fresh
            assert _games(url) == 0
            with pytest.raises(psycopg.OperationalError):
                held.execute("SELECT 1")  # its session was ended
            with psycopg.connect(psycopg_conninfo(url), autocommit=True) as conn:
                conn.execute("ALTER TABLE games ADD COLUMN extra integer")
        assert templates.waiting == 0  # a changed schema is dropped, not handed on
        with templates.database(backend, tmp_path) as url:
            assert _contents(url) == fresh
    finally:
        templates.close()
        held.close()
