"""Migration 0012 (leaderboard windows) numbers the wins a database already holds as the
service would have, and going down and up again loses no game or score."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import (
    Boolean,
    SmallInteger,
    String,
    Uuid,
    column,
    create_engine,
    insert,
    table,
    text,
)

from api.core import migrate
from api.core.database import create_database
from api.core.models import UTCDateTime
from api.core.names import name_key
from api.games.tables import games
from api.leaderboards import store as leaderboards_store
from api.settings import Settings
from testkit import databases
from tests.api.test_leaderboard_windows import Won, brute_board

T0 = datetime(2026, 11, 29, 23, 0, tzinfo=UTC)  # a Sunday: the wins cross a week's end
GAMES = games
# ``scores`` as revision 0011 has it, with the service's column types.
SCORES_0011 = table(
    "scores",
    column("game_id", Uuid()),
    column("player", String()),
    column("score", SmallInteger()),
    column("sort_score", SmallInteger()),
    column("finished_at", UTCDateTime()),
    column("assisted", Boolean()),
)


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def seed_0011(url: str) -> list[Won]:
    """Won games as revision 0011 stored them: ``games`` and ``scores`` rows, some finishing
    at the same instant (their order is then the game id's), some assisted."""
    wins = []
    scores = (5, 5, 9, 5, 0, 9, 24, 5)
    names = ("ana", "ANA", "bob", "\uff42\uff4f\uff42", "cy", "ana", "dee", "cy")
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            for number, (score, player) in enumerate(zip(scores, names, strict=True)):
                finished = T0 + timedelta(minutes=40 * (number // 2))  # pairs tie
                game_id = uuid.UUID(int=(number * 7919) % 101 + 1)
                assisted = number == 3
                connection.execute(
                    insert(GAMES).values(
                        id=game_id,
                        player=player,
                        token_hash="0" * 64,
                        salt="0" * 32,
                        deck_commitment="0" * 64,
                        state="{}",
                        version=1,
                        assisted=assisted,
                        status="won",
                        score=score,
                        placements_count=40 - score,
                        created_at=finished,
                        updated_at=finished,
                        finished_at=finished,
                    )
                )
                connection.execute(
                    insert(SCORES_0011).values(
                        game_id=game_id,
                        player=player,
                        score=score,
                        sort_score=-score,
                        finished_at=finished,
                        assisted=assisted,
                    )
                )
                wins.append(Won(str(game_id), player, score, finished, assisted))
    finally:
        engine.dispose()
    return wins


def test_existing_wins_are_numbered_in_leaderboard_order(empty_url: str) -> None:
    migrate.upgrade(empty_url, "0011")
    wins = seed_0011(empty_url)
    migrate.upgrade(empty_url)
    database = create_database(Settings(database_url=empty_url, migrate_on_start=False))
    try:
        with database.reading() as connection:
            for period in ("all", "day", "week"):
                for per_player in (False, True):
                    for assisted in (False, True):
                        windows: set[date | None] = {None}
                        if period != "all":
                            windows = {w.day if period == "day" else w.week for w in wins}
                        for starts_on in windows:
                            board = leaderboards_store.Listing(
                                period, starts_on, per_player, assisted
                            )
                            listed = leaderboards_store.leaderboard(connection, board, None, 100)
                            expected = brute_board(wins, period, starts_on, per_player, assisted)
                            assert [str(s.game_id) for s in listed] == [w.id for w in expected]
                            for place, won in enumerate(expected, start=1):
                                ranked = leaderboards_store.rank_of(
                                    connection, uuid.UUID(won.id), period, per_player, assisted
                                )
                                assert ranked == place
            keys = connection.execute(text("SELECT player_key FROM scores")).scalars().all()
            assert set(keys) == {name_key(w.player) for w in wins}
    finally:
        database.dispose()

    def scores() -> list[tuple[object, ...]]:
        engine = create_engine(empty_url)
        try:
            with engine.connect() as connection:
                return sorted(
                    tuple(row)
                    for row in connection.execute(
                        text("SELECT game_id, player, score, finished_at, assisted FROM scores")
                    )
                )
        finally:
            engine.dispose()

    before = scores()
    migrate.downgrade(empty_url, "0011")
    assert scores() == before
    migrate.upgrade(empty_url)
    assert scores() == before
