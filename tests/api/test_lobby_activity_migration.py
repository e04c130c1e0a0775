"""Migration 0025 on both databases: each race's last activity starts as its opening (nothing
kept says when its events were written), so a lobby opened long before it is closed at the
ticker's next pass and a recent one is not; downgrading takes the column away and gives the
races back as they were."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from api.core import migrate
from api.races.ticker import RaceTicker
from api.settings import Settings
from testkit import clock as fake_clock

REVISION = "0025_lobby_activity"
PARENT = "0024_open_races"
NOW = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)

_races = sa.table(
    "races",
    sa.column("id", sa.Uuid()),
    sa.column("seats", sa.SmallInteger()),
    sa.column("time_limit", sa.Integer()),
    sa.column("status", sa.String()),
    sa.column("deck_commitment", sa.String()),
    sa.column("events", sa.Integer()),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("public", sa.Boolean()),
)
_racers = sa.table(
    "race_racers",
    sa.column("race_id", sa.Uuid()),
    sa.column("number", sa.SmallInteger()),
    sa.column("name", sa.String()),
    sa.column("computer", sa.Boolean()),
)


def columns(url: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return {column["name"] for column in sa.inspect(engine).get_columns("races")}
    finally:
        engine.dispose()


def statuses(url: str) -> dict[uuid.UUID, str]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return dict(connection.execute(sa.select(_races.c.id, _races.c.status)).all())
    finally:
        engine.dispose()


def test_older_lobbies_are_as_idle_as_their_age_and_downgrading_gives_them_back(
    database_url: str,
) -> None:
    migrate.downgrade(database_url, PARENT)
    assert "active_at" not in columns(database_url)
    old, recent = uuid.uuid4(), uuid.uuid4()
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            for race_id, opened in ((old, NOW - timedelta(hours=2)), (recent, NOW)):
                race = {"seats": 4, "time_limit": 300, "status": "lobby", "events": 1}
                connection.execute(
                    sa.insert(_races),
                    race
                    | {"id": race_id, "deck_commitment": "0" * 64, "created_at": opened}
                    | {"public": True},
                )
                connection.execute(
                    sa.insert(_racers),
                    {"race_id": race_id, "number": 1, "name": "ana", "computer": False},
                )
    finally:
        engine.dispose()

    migrate.upgrade(database_url, REVISION)
    assert "active_at" in columns(database_url)
    settings = Settings(database_url=database_url, migrate_on_start=False, race_worker=False)
    with fake_clock.frozen(NOW + timedelta(minutes=1)), TestClient(create_app(settings)) as client:
        listed = {race["id"] for race in client.get("/races/open").json()["races"]}
        assert listed == {str(old), str(recent)}
        assert client.portal is not None
        ticker: RaceTicker = client.app.state.races.ticker  # type: ignore[attr-defined]
        client.portal.call(ticker.look_after)
        listed = {race["id"] for race in client.get("/races/open").json()["races"]}
        assert listed == {str(recent)}
    assert statuses(database_url) == {old: "closed", recent: "lobby"}

    migrate.downgrade(database_url, PARENT)
    assert "active_at" not in columns(database_url)
    assert statuses(database_url) == {old: "closed", recent: "lobby"}
    migrate.upgrade(database_url, "head")
