"""The console command."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, func, insert, inspect, select
from sqlalchemy.orm import Session

from api import cli
from api.app import create_app
from api.idempotency.tables import idempotency_keys
from api.settings import Settings


def test_migrate_creates_the_tables(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert cli.main(["migrate", "--database-url", url]) == 0
    engine = create_engine(url)
    assert {"games", "placements", "scores", "idempotency_keys"} <= set(
        inspect(engine).get_table_names()
    )
    assert cli.main(["migrate", "base", "--downgrade", "--database-url", url]) == 0
    assert "games" not in set(inspect(engine).get_table_names())
    engine.dispose()


def test_prune_keys_deletes_only_keys_older_than_a_day(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = create_engine(sqlite_url)
    now = datetime.now(UTC)
    with Session(engine) as session, session.begin():
        for key, age in (("old", timedelta(hours=30)), ("young", timedelta(hours=20))):
            session.execute(
                insert(idempotency_keys).values(
                    scope="games",
                    key_hash=key,
                    claim=key,
                    fingerprint="f" * 64,
                    status_code=201,
                    response_body="{}",
                    response_headers={},
                    created_at=now - age,
                    completed_at=now - age,
                )
            )
    assert cli.main(["prune-keys", "--hours", "1", "--database-url", sqlite_url]) == 0
    assert "deleted 1 " in capsys.readouterr().out
    with Session(engine) as session:
        assert session.scalars(select(idempotency_keys.c.key_hash)).all() == ["young"]
        assert session.scalar(select(func.count()).select_from(idempotency_keys)) == 1
    engine.dispose()


def test_simulate_is_a_foursquare_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--games", "2", "--policy", "greedy", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "won " in out and "of 2" in out
    assert "time per decision" in out


def test_openapi_prints_the_document_the_service_serves(
    sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["openapi"]) == 0
    printed = json.loads(capsys.readouterr().out)
    app = create_app(Settings(database_url=sqlite_url, migrate_on_start=False))
    with TestClient(app) as client:
        served = client.get("/openapi.json").json()
    assert printed == served
    assert "/games/{game_id}/placements" in printed["paths"]


@pytest.mark.parametrize("hours", ["0", "-3", "soon"])
def test_expire_refuses_a_bad_hours_value_as_a_usage_error(
    hours: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        cli.main(["expire", "--hours", hours])
    assert exited.value.code == 2
    assert "argument --hours" in capsys.readouterr().err
