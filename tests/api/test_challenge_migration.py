"""Migration 0010 (the daily challenge) goes up and down over a database with games, challenge
games and scores and keeps them all; the database itself refuses a second challenge game of
one player and day, whatever the code checked before."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.exc import IntegrityError

from api.accounts import Identity
from api.core import migrate
from api.core.database import create_database
from api.core.days import daily_deal
from api.games import challenge_counts
from api.games import store as games_store
from api.games.dealing import deal, store_dealt, todays_deal
from api.games.errors import ChallengeAlreadyPlayed
from api.games.records import DealtGame
from api.players.service import register
from api.settings import Settings
from testkit import clock as fake_clock
from testkit import databases
from testkit.games import place_in, start_game
from tests.integrity.players import winning_lines
from tests.support.fairplay import board_queued_win

SECRET = b"migration test secret"


def challenge_game(player_id: uuid.UUID) -> DealtGame:
    """Today's daily challenge game dealt for the account ``player_id`` (not stored)."""
    return deal(Identity("ana", player_id), shared=todays_deal(SECRET))


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def snapshot(url: str) -> tuple[int, int, int, list[str]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            counts = [
                int(connection.execute(text(f"SELECT count(*) FROM {table}")).scalar_one())
                for table in ("games", "placements", "scores")
            ]
            commitments = connection.execute(
                text("SELECT deck_commitment FROM games ORDER BY deck_commitment")
            ).scalars()
            return counts[0], counts[1], counts[2], list(commitments)
    finally:
        engine.dispose()


def challenge_secret_rows(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT count(*) FROM service_secrets WHERE name = 'challenge'")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def game_columns(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {column["name"] for column in inspect(engine).get_columns("games")}
    finally:
        engine.dispose()


def test_the_challenge_migration_keeps_games_and_scores_both_ways(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    assert challenge_secret_rows(empty_url) == 1 and "challenge_date" in game_columns(empty_url)
    database = create_database(Settings(database_url=empty_url, migrate_on_start=False))
    line = winning_lines()[0]
    try:
        with fake_clock.frozen(datetime(2026, 12, 1, 9, tzinfo=UTC)), database.transaction() as s:
            ana = register(s, "ana").player
            start_game(s, "guest")
            store_dealt(s, challenge_game(ana.id))
            won = start_game(s, "ana", deck=line.deck, player_id=ana.id)
        for row, col in line.positions:
            with database.transaction() as session:
                place_in(session, str(won.id), won.token, (row, col))
        with database.transaction() as session:
            board_queued_win(session, won.id)  # no app runs here: its clean review's verdict
    finally:
        database.dispose()
    before = snapshot(empty_url)
    assert before[:3] == (3, len(line.positions), 1)
    assert daily_deal(SECRET, date(2026, 12, 1)).commitment in before[3]

    migrate.downgrade(empty_url, "0008")
    assert snapshot(empty_url) == before
    assert challenge_secret_rows(empty_url) == 0
    assert "challenge_date" not in game_columns(empty_url)
    migrate.upgrade(empty_url)
    assert snapshot(empty_url) == before
    assert challenge_secret_rows(empty_url) == 1


def test_the_database_refuses_a_second_challenge_game_of_a_player_and_day(
    database_url: str,
) -> None:
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with fake_clock.frozen(datetime(2026, 12, 1, 9, tzinfo=UTC)):
            with database.transaction() as session:
                ana = register(session, "ana").player
                store_dealt(session, challenge_game(ana.id))
            # Straight to the insert, past the check a concurrent request could not see.
            with pytest.raises(IntegrityError), database.transaction() as session:
                games_store.insert_game(session, challenge_game(ana.id).row)
            # Ordinary games of the same player are not challenge games: no limit.
            with database.transaction() as session:
                start_game(session, "ana", player_id=ana.id)
                start_game(session, "ana", player_id=ana.id)
    finally:
        database.dispose()


def test_a_race_the_check_cannot_see_is_told_challenge_already_played(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with fake_clock.frozen(datetime(2026, 12, 1, 9, tzinfo=UTC)):
            with database.transaction() as session:
                ana = register(session, "ana").player
                store_dealt(session, challenge_game(ana.id))
            # As if the first game were not committed yet when the second request checked.
            monkeypatch.setattr(games_store, "challenge_game_id", lambda *_: None)
            with pytest.raises(ChallengeAlreadyPlayed), database.transaction() as session:
                store_dealt(session, challenge_game(ana.id))
            with database.reading() as connection:
                assert challenge_counts(connection, date(2026, 12, 1)) == (1, 0)
    finally:
        database.dispose()
