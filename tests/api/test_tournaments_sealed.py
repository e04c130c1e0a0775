"""A tournament's games are sealed as a race's are: until the tournament ends, no read route
shows another entrant's game, its id, its cards or its placements (the game, its history, its
stream, its analysis, a hint, a player's games, the games being played, the boards and their
`around`, the tournament's own routes and stream); once it has ended they are all public, as
any game. On SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.core.database import Database
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.clock import FrozenClock
from tests.api.test_hidden_information import card_codes
from tests.api.test_tournaments import (
    create,
    deal,
    guest,
    play_line,
    register,
    set_review,
    tick,
    winning_line,
)

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        Settings(
            database_url=database_url,
            migrate_on_start=False,
            tournament_worker=False,
            fairplay_worker=False,
        )
    )


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    with fake_clock.frozen(T0) as frozen:
        yield frozen


def reads(client: TestClient, game_id: str, tournament_id: str, who: dict[str, str]) -> list[Any]:
    """Every read that could show the game, as ``who`` (another entrant, or nobody)."""
    path = f"/tournaments/{tournament_id}"
    return [
        client.get(path, headers=who),
        client.get(f"{path}/standings", headers=who),
        client.get("/tournaments", headers=who),
        client.get("/players/ana/games", headers=who),
        client.get("/players/ana", headers=who),
        client.get("/games?status=in_progress", headers=who),
        client.get("/leaderboard", headers=who),
        client.get("/leaderboard?period=day", headers=who),
        client.get("/leaderboard?per_player=best", headers=who),
    ]


def test_no_entrant_sees_another_entrants_game_until_the_tournament_ends(
    client: TestClient, app: FastAPI, database: Database, clock: FrozenClock
) -> None:
    ana = register(client, "ana")
    for _ in range(5):  # a deal no line wins is rare: another tournament then
        tournament_id = create(client, deals=2, starts_at=T0.isoformat())["id"]
        joined = client.post(f"/tournaments/{tournament_id}/entrants", headers=ana)
        assert joined.status_code == 201, joined.text
        bob = guest(client, tournament_id, "bob")
        game_id = deal(client, tournament_id, ana)["game_id"]
        line = winning_line(database, game_id)
        if line is not None:
            break
    assert line is not None
    # Mid-game, then won: sealed all along.
    play_line(client, game_id, ana, line[:5])
    for stage in ("in progress", "won"):
        for who in ({}, bob):
            for path in (f"/games/{game_id}", f"/games/{game_id}/placements"):
                refused = client.get(path, headers=who)
                assert refused.status_code == 403, (stage, path, refused.text)
                assert refused.json()["code"] == "race_game_private"
            stream = client.get(f"/games/{game_id}/events", headers=who)
            assert stream.status_code == 403, (stage, stream.text)
            analysis = client.post(f"/games/{game_id}/analysis", headers=who)
            assert analysis.status_code == 409, (stage, analysis.text)
            if stage == "won":
                assert analysis.json()["code"] == "race_not_over"
            for answer in reads(client, game_id, tournament_id, who):
                assert answer.status_code == 200, answer.text
                assert game_id not in answer.text, (stage, answer.request.url)
                assert not set(card_codes(answer.json())), answer.request.url
            around = client.get(f"/leaderboard/around/{game_id}", headers=who)
            assert around.status_code in (403, 404), around.text
        # Its own player sees it, but gets no hint: the deal is everybody's.
        assert client.get(f"/games/{game_id}", headers=ana).status_code == 200
        hint = client.get(f"/games/{game_id}/hint", headers=ana)
        assert hint.status_code == 409, hint.text
        assert hint.json()["code"] == ("race_not_over" if stage == "in progress" else "game_over")
        if stage == "in progress":
            won = play_line(client, game_id, ana, line[5:])
            assert won["status"] == "won"
    # bob's view of the tournament never names it either.
    you = client.get(f"/tournaments/{tournament_id}", headers=bob).json()["you"]
    assert you["current_game"] is None and game_id not in str(you)

    # The end: public, as any game, once revealed; its win reaches the boards after review.
    clock.set(T0 + timedelta(hours=1))
    tick(client, app)
    assert client.get(f"/games/{game_id}").status_code == 200
    assert client.get(f"/games/{game_id}/placements").status_code == 200
    listed = client.get("/players/ana/games").json()["games"]
    assert game_id in {game["id"] for game in listed}
    set_review(database, game_id, "clean")
    tick(client, app)
    standings = client.get(f"/tournaments/{tournament_id}/standings").json()
    assert standings["status"] == "final"
    ana_entry = next(e for e in standings["entries"] if e["name"] == "ana")
    assert ana_entry["games"] == [game_id] and uuid.UUID(game_id)
