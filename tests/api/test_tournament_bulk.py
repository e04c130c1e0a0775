"""api.tournaments.bulk_entrants and bulk_finish (the benchmarks' loader): entrants loaded
straight into a tournament are what the API then shows of entrants who played, in the
standings' order with shared ranks, counted in the tournament, and a finished tournament's
final standings list each entry's place and games."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr
from sqlalchemy import create_engine

from api.settings import Settings
from api.tournaments import LoadedEntrant, bulk_entrants, bulk_finish
from tests.conftest import MakeGame

OPERATOR = "ops:" + "k" * 40
AUTH = {"Authorization": "Bearer " + "k" * 40}
AT = datetime(2026, 11, 30, 18, tzinfo=UTC)


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url, migrate_on_start=False, operator_keys=SecretStr(OPERATOR)
    )


def running(client: TestClient) -> str:
    now = datetime.now(UTC)
    body = {
        "name": "loaded",
        "starts_at": (now - timedelta(minutes=1)).isoformat(),
        "ends_at": (now + timedelta(days=1)).isoformat(),
        "deals": 2,
        "guests": True,
    }
    response = client.post("/tournaments", json=body, headers=AUTH)
    assert response.status_code == 201, response.text
    assert response.json()["status"] == "running"
    return str(response.json()["id"])


def entrant(number: int, score: int, cards: int, second: int, **more: object) -> LoadedEntrant:
    return LoadedEntrant(
        number=number,
        name=f"loaded{number}",
        joined_at=AT - timedelta(minutes=5),
        deals_played=2,
        score=score,
        cards=cards,
        finished_at=AT + timedelta(seconds=second),
        token_hash=f"{number:064x}",
        **more,  # type: ignore[arg-type]
    )


def load(database_url: str, tournament: str, entrants: list[LoadedEntrant]) -> int:
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            return bulk_entrants(connection, uuid.UUID(tournament), entrants)
    finally:
        engine.dispose()


def test_loaded_entrants_are_the_standings_with_their_ranks(
    client: TestClient, database_url: str
) -> None:
    tournament = running(client)
    loaded = [
        entrant(1, 10, 50, 30),
        entrant(2, 30, 60, 40),
        entrant(3, 10, 50, 30),  # ties with 1: the same rank, after it by number
        entrant(4, 10, 55, 50),
        entrant(5, 0, 40, 10),
    ]
    assert load(database_url, tournament, loaded) == 5
    page = client.get(f"/tournaments/{tournament}/standings?limit=100").json()
    assert page["status"] == "provisional" and page["total"] == 5
    order = [(entry["number"], entry["rank"]) for entry in page["entries"]]
    assert order == [(2, 1), (4, 2), (1, 3), (3, 3), (5, 5)]
    assert client.get(f"/tournaments/{tournament}").json()["entrants"] == 5
    first = page["entries"][0]
    assert (first["name"], first["deals_played"], first["score"], first["cards"]) == (
        "loaded2",
        2,
        30,
        60,
    )
    assert first["games"] is None and first["place"] is None


def test_a_finished_tournament_shows_places_and_games(
    client: TestClient, database_url: str, make_game: MakeGame
) -> None:
    tournament = running(client)
    games = [uuid.UUID(make_game().id) for _ in range(4)]
    loaded = [
        entrant(1, 5, 50, 30, place=2, games=(games[0], games[1])),
        entrant(2, 9, 50, 30, place=1, games=(games[2], games[3])),
    ]
    load(database_url, tournament, loaded)
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            bulk_finish(connection, uuid.UUID(tournament), AT + timedelta(hours=1))
    finally:
        engine.dispose()
    page = client.get(f"/tournaments/{tournament}/standings").json()
    assert page["status"] == "final"
    assert [(e["number"], e["place"]) for e in page["entries"]] == [(2, 1), (1, 2)]
    assert page["entries"][0]["games"] == [str(games[2]), str(games[3])]
    read = client.get(f"/tournaments/{tournament}").json()
    assert read["status"] == "finished"
    assert [w["name"] for w in read["winners"]] == ["loaded2", "loaded1"]
