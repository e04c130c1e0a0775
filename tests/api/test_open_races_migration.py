"""Migration 0024 on both databases: the races opened before it stay private (by link, never
listed), the open list's and the streaks' indexes are there, and downgrading takes the column
and the indexes away and gives the races back as they were."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from fastapi.testclient import TestClient

from api.app import create_app
from api.core import migrate
from api.settings import Settings

REVISION = "0024_open_races"
PARENT = "0023_tournaments"

_races = sa.table(
    "races",
    sa.column("id", sa.Uuid()),
    sa.column("seats", sa.SmallInteger()),
    sa.column("time_limit", sa.Integer()),
    sa.column("status", sa.String()),
    sa.column("deck_commitment", sa.String()),
    sa.column("events", sa.Integer()),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
_racers = sa.table(
    "race_racers",
    sa.column("race_id", sa.Uuid()),
    sa.column("number", sa.SmallInteger()),
    sa.column("name", sa.String()),
    sa.column("computer", sa.Boolean()),
)


def shape(url: str) -> tuple[set[str], set[str], set[str]]:
    """The races' columns, and the races' and games' index names."""
    engine = sa.create_engine(url)
    try:
        found = sa.inspect(engine)
        columns = {column["name"] for column in found.get_columns("races")}
        races = {str(index["name"]) for index in found.get_indexes("races")}
        games = {str(index["name"]) for index in found.get_indexes("games")}
        return columns, races, games
    finally:
        engine.dispose()


def test_older_races_stay_private_and_downgrading_gives_them_back(database_url: str) -> None:
    migrate.downgrade(database_url, PARENT)
    columns, races, games = shape(database_url)
    assert "public" not in columns and "ix_races_open" not in races
    assert "ix_games_player_challenges" not in games
    race_id = uuid.uuid4()
    engine = sa.create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                sa.insert(_races),
                {
                    "id": race_id,
                    "seats": 4,
                    "time_limit": 300,
                    "status": "lobby",
                    "deck_commitment": "0" * 64,
                    "events": 1,
                    "created_at": datetime(2026, 12, 1, 9, tzinfo=UTC),
                },
            )
            connection.execute(
                sa.insert(_racers),
                {"race_id": race_id, "number": 1, "name": "ana", "computer": False},
            )
    finally:
        engine.dispose()

    migrate.upgrade(database_url, REVISION)
    columns, races, games = shape(database_url)
    assert "public" in columns and "ix_races_open" in races
    assert "ix_games_player_challenges" in games
    # The service as it is now (its races have the columns of the later migrations too); its
    # ticker off: the old lobby, idle since long ago, would be closed (migration 0025's test).
    migrate.upgrade(database_url, "head")
    settings = Settings(database_url=database_url, migrate_on_start=False, race_worker=False)
    with TestClient(create_app(settings)) as client:
        race = client.get(f"/races/{race_id}").json()
        assert (race["status"], race["public"]) == ("lobby", False)
        assert client.get("/races/open").json() == {"races": [], "next_cursor": None}
        # A public race opened now is listed, the older one still not.
        opened = client.post("/races", json={"player": "bob", "public": True}).json()
        listed = client.get("/races/open").json()["races"]
        assert [entry["id"] for entry in listed] == [opened["id"]]

    migrate.downgrade(database_url, PARENT)
    columns, races, games = shape(database_url)
    assert "public" not in columns and "ix_races_open" not in races
    assert "ix_games_player_challenges" not in games
    engine = sa.create_engine(database_url)
    try:
        with engine.connect() as connection:
            statuses = dict(connection.execute(sa.select(_races.c.id, _races.c.status)).all())
    finally:
        engine.dispose()
    assert statuses == {race_id: "lobby", uuid.UUID(opened["id"]): "lobby"}
    migrate.upgrade(database_url, "head")
