"""Migration 0017 marks the computer racer's games, played before it as a guest's called
``computer``, and takes their wins off every board as a recount would: the counts, the
ordinals of the games that finished after them, and the players' bests all agree with the
won games left (``foursquare check-leaderboard`` finds no drift), on both databases."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import insert, select, update

from api.core import migrate
from api.core.database import Database, create_database
from api.games.tables import games
from api.leaderboards import counters_drift
from api.leaderboards.tables import scores as SCORES  # noqa: N812
from api.races.tables import race_racers, races
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.games import place_in, start_game
from tests.api.conformance import won_vectors
from tests.support.fairplay import board_queued_win

GAMES = games
T0 = datetime(2026, 12, 1, 9, tzinfo=UTC)


def play_won(database: Database, player: str, vector: dict[str, Any], at: datetime) -> uuid.UUID:
    """A game of ``player`` won by the vector's placements, finishing near ``at`` (as the
    service did before 0017 for the computer too: its wins were a guest's)."""
    with fake_clock.frozen(at), database.transaction() as session:
        game = start_game(session, player, deck=vector["deck"])
        for step in vector["steps"]:
            place_in(session, game.id, game.token, (step["row"], step["col"]))
        board_queued_win(session, game.id)  # as a clean review does (before 0017: all were)
    return game.id


def test_the_computers_wins_leave_every_board_as_a_recount_would(database_url: str) -> None:
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        won = won_vectors()
        # Four wins; the computer's is second, so two games of boards after it move up.
        played = [
            ("ana", won[0], T0),
            ("computer", won[1], T0 + timedelta(minutes=1)),
            ("bob", won[1], T0 + timedelta(minutes=2)),
            ("ana", won[1], T0 + timedelta(minutes=3)),
        ]
        ids = [play_won(database, name, vector, at) for name, vector, at in played]
        computer = ids[1]
        race = uuid.uuid4()
        with database.transaction() as session:
            connection = session.connection()
            connection.execute(
                insert(races).values(
                    id=race,
                    seats=2,
                    time_limit=300,
                    status="finished",
                    deck_commitment="0" * 64,
                    events=0,
                    created_at=T0,
                    active_at=T0,
                )
            )
            connection.execute(
                insert(race_racers),
                [
                    {"race_id": race, "number": 1, "name": "ana", "computer": False},
                    {"race_id": race, "number": 2, "name": "computer", "computer": True},
                ],
            )
            connection.execute(
                update(race_racers).where(race_racers.c.number == 2).values(game_id=computer)
            )
        assert counters_drift(database) == []
        with database.reading() as connection:
            before = set(connection.execute(select(SCORES.c.game_id)).scalars())
        assert computer in before
    finally:
        database.dispose()

    migrate.downgrade(database_url, "0016_name_rule")
    migrate.upgrade(database_url, "head")

    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with database.reading() as connection:
            on_boards = set(connection.execute(select(SCORES.c.game_id)).scalars())
            marked = dict(connection.execute(select(GAMES.c.id, GAMES.c.computer)).all())
        assert on_boards == before - {computer}
        assert marked[computer] is True and not any(marked[i] for i in ids if i != computer)
        # Every count, ordinal and best agrees with the wins left.
        assert counters_drift(database) == []
    finally:
        database.dispose()
