"""``games.public_json``: the stored JSON that ``GET /games/{id}`` sends must always be exactly
the game rendered from its state, through every kind of write."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from api import services
from api.db import Database
from api.presenters import game_json, game_out
from api.repository import get_game
from api.settings import Settings
from engine import Game
from tests.conftest import MakeGame


@pytest.fixture
def settings(database_url: str) -> Settings:
    """A small hint budget, so that the test stays quick."""
    return Settings(database_url=database_url, migrate_on_start=False, hint_placements=300)


def rendered_from_state(database: Database, game_id: str) -> dict[str, Any]:
    with database.transaction(write=False) as session:
        loaded = services.load_game(session, game_id)
    data: dict[str, Any] = json.loads(game_out(loaded.row, loaded.game).model_dump_json())
    return data


def stored(database: Database, game_id: str) -> dict[str, Any]:
    with database.transaction(write=False) as session:
        row = get_game(session, services.parse_game_id(game_id))
    assert row is not None and row.public_json is not None
    data: dict[str, Any] = json.loads(row.public_json)
    return data


def test_every_write_stores_the_game_as_it_renders(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    created = client.post("/games", json={"player": "ana"})
    game_id, auth = created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}
    assert stored(database, game_id) == rendered_from_state(database, game_id)
    assert client.get(f"/games/{game_id}").json() == rendered_from_state(database, game_id)

    hinted = client.get(f"/games/{game_id}/hint", headers=auth)  # marks the game assisted
    assert hinted.status_code == 200
    assert stored(database, game_id)["assisted"] is True
    assert stored(database, game_id) == rendered_from_state(database, game_id)

    status = "in_progress"
    while status == "in_progress":
        legal = client.get(f"/games/{game_id}").json()["legal_placements"]
        placed = client.post(f"/games/{game_id}/placements", json=legal[-1], headers=auth)
        assert placed.status_code == 201, placed.text
        status = placed.json()["game"]["status"]
        assert placed.json()["game"] == rendered_from_state(database, game_id)
        assert client.get(f"/games/{game_id}").json() == placed.json()["game"]
    assert stored(database, game_id)["reveal"] is not None  # the deck, once the game is over


def test_a_game_stored_before_the_column_existed_is_rendered_from_its_state(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}").json()
    with database.transaction(write=True) as session:
        session.execute(text("UPDATE games SET public_json = NULL"))
    assert client.get(f"/games/{game.id}").json() == before
    placed = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth
    )
    assert placed.status_code == 201
    assert stored(database, game.id) == rendered_from_state(database, game.id)


PLAYERS = ["ana", 'quote " and \\ backslash', "José ünïcödé 漢字 🂡", "tab\there", "x" * 64]


def test_the_direct_rendering_is_byte_for_byte_the_models() -> None:
    # game_json writes the JSON itself (no GameOut validation); it must be exactly what the
    # response model would serialise, on every state of many games, for every kind of row.
    rng = random.Random(6)
    checked = 0
    for seed in range(120):
        created = services.new_game(PLAYERS[seed % len(PLAYERS)])
        game = Game.from_seed(seed)
        when = datetime(2026, 11, 29, 16, 20, tzinfo=UTC) + timedelta(
            seconds=rng.randrange(10**6), microseconds=rng.choice([0, 1, 120000, 999999])
        )
        row = created.row._replace(
            created_at=when if seed % 7 else when.astimezone(timezone(timedelta(hours=-5))),
            assisted=seed % 3 == 0,
            version=seed + 1,
        )
        while True:
            finished = when + timedelta(minutes=5) if game.is_over else None
            row = row._replace(updated_at=when + timedelta(seconds=checked), finished_at=finished)
            assert game_json(row, game) == game_out(row, game).model_dump_json()
            checked += 1
            if game.is_over:
                break
            game.place(rng.choice(game.legal_placements()))
    assert checked > 1500
