"""Migration 0008 (players) goes up and down over a database with games and scores, and keeps
them: a game of an account becomes a guest's game when accounts are removed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from api.core import migrate
from api.core.database import create_database
from api.players.service import register
from api.settings import Settings
from testkit import databases
from testkit.games import place_in, start_game
from tests.integrity.players import winning_lines
from tests.support.fairplay import board_queued_win


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def counts(url: str) -> tuple[int, int, int]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            games = connection.execute(text("SELECT count(*) FROM games")).scalar_one()
            placements = connection.execute(text("SELECT count(*) FROM placements")).scalar_one()
            scores = connection.execute(text("SELECT count(*) FROM scores")).scalar_one()
            return games, placements, scores
    finally:
        engine.dispose()


def test_players_migration_keeps_games_and_scores_both_ways(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    database = create_database(Settings(database_url=empty_url, migrate_on_start=False))
    line = winning_lines()[0]
    try:
        with database.transaction() as session:
            ana = register(session, "ana").player
            start_game(session, "guest")
            start_game(session, "ana", player_id=ana.id)
        with database.transaction() as session:
            won = start_game(session, "ana", deck=line.deck, player_id=ana.id)
        for row, col in line.positions:
            with database.transaction() as session:
                place_in(session, str(won.id), won.token, (row, col))
        with database.transaction() as session:
            board_queued_win(session, won.id)  # as its clean review would
    finally:
        database.dispose()
    before = counts(empty_url)
    assert before == (3, len(line.positions), 1)

    migrate.downgrade(empty_url, "0007")
    assert counts(empty_url) == before
    migrate.upgrade(empty_url)
    assert counts(empty_url) == before
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            owners = connection.execute(text("SELECT player_id FROM games")).scalars().all()
            players = connection.execute(text("SELECT count(*) FROM players")).scalar_one()
    finally:
        engine.dispose()
    assert owners == [None, None, None] and players == 0
