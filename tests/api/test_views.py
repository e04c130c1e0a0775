"""Stored public views: ``games.public_json`` is derived data, always the game as it renders
now, in the current format; a view stored in another format is rendered again when read."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import Field
from sqlalchemy import text

from api.games import views
from api.games.games import load_game, new_game, parse_game_id
from api.schemas import GameOut
from api.settings import Settings
from api.store.database import Database
from api.store.repository import GameRecord, get_game
from engine import Game
from tests.conftest import MakeGame


@pytest.fixture
def settings(database_url: str) -> Settings:
    """A small hint budget, so that the test stays quick."""
    return Settings(database_url=database_url, migrate_on_start=False, hint_placements=300)


def rendered_from_state(database: Database, game_id: str) -> dict[str, Any]:
    with database.reading() as session:
        loaded = load_game(session, game_id)
    data: dict[str, Any] = json.loads(views.game_out(loaded.row, loaded.game).model_dump_json())
    return data


def stored_row(database: Database, game_id: str) -> GameRecord:
    with database.reading() as session:
        row = get_game(session, parse_game_id(game_id))
    assert row is not None
    return row


def stored(database: Database, game_id: str) -> dict[str, Any]:
    row = stored_row(database, game_id)
    assert row.public_json is not None
    assert row.public_format == views.PUBLIC_VIEW_FORMAT
    data: dict[str, Any] = json.loads(row.public_json)
    return data


def test_every_write_stores_the_game_as_it_renders(client: TestClient, database: Database) -> None:
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


def test_a_game_stored_without_a_view_is_rendered_from_its_state_and_stored(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}").json()
    with database.transaction() as session:
        session.execute(text("UPDATE games SET public_json = NULL, public_format = NULL"))
    assert client.get(f"/games/{game.id}").json() == before
    assert stored(database, game.id) == before  # stored again by the read


class GameOutWithRules(GameOut):
    """A changed schema: a field added."""

    rules: str = Field(default="https://example.invalid/rules")


def test_a_changed_view_format_is_served_for_games_stored_in_the_old_one(
    client: TestClient, database: Database, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_in_play = make_game()
    assert (
        client.post(
            f"/games/{game_in_play.id}/placements",
            json={"row": 0, "col": 0},
            headers=game_in_play.auth,
        ).status_code
        == 201
    )
    old_format = stored_row(database, game_in_play.id).public_format
    assert "rules" not in client.get(f"/games/{game_in_play.id}").json()

    # The service as it would be after a release that changed GameOut: the format follows
    # from the schema by itself.
    new_format = views.view_format(GameOutWithRules.model_json_schema(), views.RENDERING_REVISION)
    assert new_format != old_format
    render_before = views.game_out

    def render_after(row: GameRecord, game: Game) -> GameOut:
        return GameOutWithRules.model_construct(**dict(render_before(row, game)))

    monkeypatch.setattr(views, "PUBLIC_VIEW_FORMAT", new_format)
    monkeypatch.setattr(views, "game_out", render_after)

    answer = client.get(f"/games/{game_in_play.id}")
    assert answer.status_code == 200
    assert answer.json()["rules"] == "https://example.invalid/rules"
    assert answer.json() == rendered_from_state(database, game_in_play.id)
    row = stored_row(database, game_in_play.id)
    assert row.public_format == new_format  # rendered once, stored for the next reads
    assert json.loads(row.public_json or "")["rules"] == "https://example.invalid/rules"
    assert row.version == 2  # a view is derived data: the game itself did not change
    assert client.get(f"/games/{game_in_play.id}").json() == answer.json()


PLAYERS = ["ana", 'quote " and \\ backslash', "José ünïcödé 漢字 🂡", "tab\there", "x" * 64]


def test_views_built_without_validation_are_valid_games_on_every_state() -> None:
    # views.game_out builds GameOut with model_construct (no validation): what it renders must
    # pass the model's own validation, and mean the same, on every state of many games.
    rng = random.Random(6)
    checked = 0
    for seed in range(120):
        created = new_game(PLAYERS[seed % len(PLAYERS)])
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
            rendered = views.game_out(row, game).model_dump_json()
            validated = GameOut.model_validate_json(rendered)
            assert validated.model_dump_json() == rendered
            checked += 1
            if game.is_over:
                break
            game.place(rng.choice(game.legal_placements()))
    assert checked > 1500
