"""The one place where the browser tests call the service's Python modules directly, for what
the public API deliberately cannot do: deal a game from a chosen deck, win games at a chosen
time, know a day's challenge deal or a race's deal: when the service's modules move, only this
file follows."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from typing import Any

from fastapi.testclient import TestClient

from api.accounts import find_player
from api.app import create_app
from api.core.database import create_database
from api.core.days import daily_deal, shared_deal
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.games import place_in, start_game

__all__ = [
    "challenge_commitment",
    "challenge_deck",
    "race_deck",
    "store_game",
    "store_game_at",
    "test_client",
    "win_at",
]


def store_game(
    database_url: str, deck: list[str], player: str, account: bool = False
) -> tuple[str, str]:
    """A game dealt from ``deck``, stored directly in the server's database (the account's
    called ``player`` if ``account``, else a guest's); returns its id and token."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with database.transaction() as session:
            player_id = find_player(session, player).id if account else None
            created = start_game(session, player, deck=deck, player_id=player_id)
            session.flush()
            return str(created.id), created.token
    finally:
        database.dispose()


def store_game_at(database_url: str, player: str, at: datetime) -> tuple[str, str]:
    """A game started (and last moved) at ``at``, stored directly in the server's database;
    returns its id and token."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with fake_clock.frozen(at), database.transaction() as session:
            created = start_game(session, player)
            session.flush()
            return str(created.id), created.token
    finally:
        database.dispose()


def win_at(url: str, vector: dict[str, Any], player: str, at: datetime | None) -> str:
    """A game of ``vector``'s deal won by ``player`` at ``at`` (the clock set there; now if
    None), written by the service's own code on the server's database; returns its id."""
    database = create_database(Settings(database_url=url, migrate_on_start=False))
    try:
        with fake_clock.frozen(at or datetime.now(UTC)):
            with database.transaction() as session:
                created = start_game(session, player, deck=vector["deck"])
                session.flush()
                game_id, token = str(created.id), created.token
            for step in vector["steps"]:
                with database.transaction() as session:
                    place_in(session, game_id, token, (step["row"], step["col"]))
        return game_id
    finally:
        database.dispose()


def challenge_deck(secret: str, day: date) -> list[str]:
    """The card codes of ``day``'s challenge deal under the challenge ``secret``."""
    return list(daily_deal(secret.encode(), day).deck)


def race_deck(secret: str, race_id: str) -> list[str]:
    """The card codes of race ``race_id``'s deal under the challenge ``secret`` (the secret the
    service's shared deals derive from)."""
    return list(shared_deal(secret.encode(), "race", uuid.UUID(race_id).hex).deck)


def challenge_commitment(secret: str, day: date) -> str:
    """The deck commitment of ``day``'s challenge deal under ``secret``."""
    return daily_deal(secret.encode(), day).commitment


def test_client(database_url: str) -> TestClient:
    """The service's app on ``database_url``, in process (no server)."""
    return TestClient(create_app(Settings(database_url=database_url, migrate_on_start=False)))


test_client.__test__ = False  # type: ignore[attr-defined]  # not a test, whatever its name
