"""Stored snapshots: ``games.public_json`` holds a storage format (:mod:`api.games.snapshot`),
always the game as it is now, in the current format; a snapshot of another format is made
again when read; responses are rendered from snapshots, so a changed response model never
reaches a stored row."""

from __future__ import annotations

import json
import random
import uuid
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import Field
from sqlalchemy import text

from api.core.database import Database
from api.games import records, snapshot
from api.games.records import load_game
from api.games.schemas import GameOut
from api.games.store import StoredView, get_view
from engine import Game
from tests.conftest import MakeGame


def taken_from_state(database: Database, game_id: str) -> snapshot.GameSnapshot:
    """The snapshot of the game's engine state as stored now."""
    with database.reading() as session:
        loaded = load_game(session, uuid.UUID(game_id))
    return snapshot.take(loaded.game, loaded.row.salt, sealed=False)


def stored_view(database: Database, game_id: str) -> StoredView:
    with database.reading() as session:
        view = get_view(session, uuid.UUID(game_id))
    assert view is not None
    return view


def stored(database: Database, game_id: str) -> snapshot.GameSnapshot:
    view = stored_view(database, game_id)
    assert view.snapshot is not None
    assert view.snapshot_format == snapshot.FORMAT
    return snapshot.loads(view.snapshot)


def test_every_write_stores_the_snapshot_of_the_game_as_it_is(
    client: TestClient, database: Database
) -> None:
    created = client.post("/games", json={"player": "ana"})
    game_id, auth = created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}
    assert stored(database, game_id) == taken_from_state(database, game_id)

    hinted = client.get(f"/games/{game_id}/hint", headers=auth)  # marks the game assisted
    assert hinted.status_code == 200
    assert stored_view(database, game_id).assisted is True
    assert client.get(f"/games/{game_id}").json()["assisted"] is True
    assert stored(database, game_id) == taken_from_state(database, game_id)

    status = "in_progress"
    while status == "in_progress":
        legal = client.get(f"/games/{game_id}").json()["legal_placements"]
        placed = client.post(f"/games/{game_id}/placements", json=legal[-1], headers=auth)
        assert placed.status_code == 201, placed.text
        status = placed.json()["game"]["status"]
        assert stored(database, game_id) == taken_from_state(database, game_id)
        assert client.get(f"/games/{game_id}").json() == placed.json()["game"]
    assert stored(database, game_id).reveal is not None  # the deck, once the game is over


def test_a_game_stored_without_a_snapshot_gets_one_from_its_state(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}").json()
    with database.transaction() as session:
        session.execute(text("UPDATE games SET public_json = NULL, public_format = NULL"))
    assert client.get(f"/games/{game.id}").json() == before
    assert stored(database, game.id) == taken_from_state(database, game.id)  # stored by the read


def test_a_changed_snapshot_format_is_made_again_for_rows_stored_in_the_old_one(
    client: TestClient, database: Database, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game()
    placed = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth
    )
    assert placed.status_code == 201
    before = client.get(f"/games/{game.id}").json()
    assert stored_view(database, game.id).snapshot_format == snapshot.FORMAT

    # The service as it would be after a release that changed the snapshot's format.
    monkeypatch.setattr(snapshot, "FORMAT", "snapshot-test-next")
    answer = client.get(f"/games/{game.id}")
    assert answer.status_code == 200
    assert answer.json() == before  # the same game, read through a snapshot made anew
    view = stored_view(database, game.id)
    assert view.snapshot_format == "snapshot-test-next"  # made once, stored for the next reads
    assert view.version == 2  # a snapshot is derived data: the game itself did not change
    assert client.get(f"/games/{game.id}").json() == before


class GameOutWithRules(GameOut):
    """A changed response model: a field added."""

    rules: str = Field(default="https://example.invalid/rules")


def test_a_changed_response_model_changes_no_stored_row(
    client: TestClient, database: Database, make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = make_game()
    client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    before = stored_view(database, game.id)

    monkeypatch.setattr(records, "GameOut", GameOutWithRules)
    answer = client.get(f"/games/{game.id}").json()
    assert answer["rules"] == "https://example.invalid/rules"
    assert stored_view(database, game.id) == before  # the row is the storage format, untouched


PLAYERS = ["ana", 'quote " and \\ backslash', "José ünïcödé 漢字 🂡", "tab\there", "x" * 64]


def _view(seed: int, game: Game, taken: snapshot.GameSnapshot, when: datetime) -> StoredView:
    finished = when + timedelta(minutes=5) if game.is_over else None
    return StoredView(
        id=uuid.UUID(int=seed),
        player=PLAYERS[seed % len(PLAYERS)],
        version=seed + 1,
        status=taken.status,
        assisted=seed % 3 == 0,
        deck_commitment="0" * 64,
        created_at=when if seed % 7 else when.astimezone(timezone(timedelta(hours=-5))),
        updated_at=when,
        finished_at=finished,
        challenge_date=date(2026, 12, 1) if seed % 5 == 0 else None,
        snapshot_format=snapshot.FORMAT,
        snapshot=None,
    )


def test_snapshots_round_trip_and_render_the_engines_public_view_on_every_state() -> None:
    rng = random.Random(6)
    checked = 0
    for seed in range(120):
        game = Game.from_seed(seed)
        when = datetime(2026, 11, 29, 16, 20, tzinfo=UTC) + timedelta(
            seconds=rng.randrange(10**6), microseconds=rng.choice([0, 1, 120000, 999999])
        )
        while True:
            taken = snapshot.take(game, "5a" * 16, sealed=False)
            assert snapshot.loads(snapshot.dumps(taken)) == taken
            rank = seed if game.is_over and seed % 2 else None
            out_model = records.game_out(_view(seed, game, taken, when), taken, rank)
            rendered = out_model.model_dump_json()
            out: dict[str, Any] = json.loads(rendered)
            assert GameOut.model_validate_json(rendered).model_dump_json() == rendered
            view = game.public_view()
            assert out["status"] == view.status.value and out["score"] == view.score
            assert [(p["row"], p["col"]) for p in out["legal_placements"]] == [
                (p.row, p.col) for p in view.legal_placements
            ]
            assert [[c["code"] for c in p["cards"]] for p in out["piles"]] == [
                [c.code for c in p.cards] for p in view.piles
            ]
            assert out["current_card"] == (
                None if view.current_card is None else {
                    "rank": view.current_card.rank,
                    "suit": view.current_card.suit.label,
                    "code": view.current_card.code,
                }
            )  # fmt: skip
            assert (out["reveal"] is not None) == game.is_over
            checked += 1
            if game.is_over:
                break
            game.place(rng.choice(game.legal_placements()))
    assert checked > 1500


def test_a_sealed_snapshot_withholds_the_reveal() -> None:
    game = Game.from_seed(3)
    while not game.is_over:
        game.place(game.legal_placements()[0])
    assert snapshot.take(game, "00", sealed=True).reveal is None
    assert snapshot.format_of(game, sealed=True) == snapshot.SEALED_FORMAT
    assert snapshot.take(game, "00", sealed=False).reveal is not None
