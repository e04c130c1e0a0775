"""The order a game's subscribers run in is their stages' (:data:`api.games.hooks.STAGES`), not
the order they subscribed in, and an end takes its locks in that order: a player's stats row,
then the count of wins of the score (two ends taking them in opposite orders could deadlock).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.orm import Session

from api import events, fairplay, leaderboards, players, races, tournaments
from api.core.database import Database
from api.games import HOOKS, GameFacts, GameHooks
from api.games.hooks import STAGES, Listener

FEATURES = (players, leaderboards, events, fairplay, races, tournaments)  # subscribe_features's


def backwards() -> GameHooks:
    """The features subscribed last first."""
    hooks = GameHooks()
    for feature in reversed(FEATURES):
        feature.subscribe(hooks)
    return hooks


def facts(player_id: uuid.UUID | None, score: int | None) -> GameFacts:
    # Assisted: a win the boards count at its end (one without hints waits for its review).
    status = "lost" if score is None else "won"
    at = datetime(2026, 3, 1, tzinfo=UTC)
    return GameFacts(uuid.uuid4(), "alice", player_id, None, True, 40, status, score, at)


def test_the_subscribers_run_in_the_order_of_their_stages_whatever_order_they_subscribed() -> None:
    hooks = backwards()
    # The process's hooks, subscribed by the app's order (tests/conftest.py).
    assert hooks.created == HOOKS.created
    assert hooks.moved == HOOKS.moved
    assert hooks.ending == HOOKS.ending
    assert hooks.ended == HOOKS.ended
    assert hooks.revealed == HOOKS.revealed
    assert hooks.rank == HOOKS.rank
    assert len(hooks.ended) == len(FEATURES)  # every feature hears an end


def test_each_moment_calls_the_stages_first_to_last() -> None:
    hooks = GameHooks()
    heard: list[str] = []

    def hear(stage: str) -> Listener:
        return lambda session, game: heard.append(stage)

    for stage in reversed(STAGES):
        hooks.subscribe(stage, ended=hear(stage))
    hooks.announce(hooks.ended, Session(), facts(None, None))
    assert heard == list(STAGES)
    assert STAGES[:2] == ("player stats", "boards")  # the lock order an end needs


def test_a_stage_has_one_subscriber_and_a_rank_one_giver() -> None:
    hooks = GameHooks()
    players.subscribe(hooks)
    with pytest.raises(ValueError, match="player stats"):
        players.subscribe(hooks)
    leaderboards.subscribe(hooks)
    with pytest.raises(ValueError, match="rank"):
        hooks.subscribe("news", rank=lambda session, game_id, assisted: 1)
    assert hooks.ending == HOOKS.ending  # the refused subscriptions left nothing behind


def test_an_end_locks_the_players_stats_before_the_count_of_its_score(
    database: Database,
) -> None:
    hooks = backwards()
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(str(args[2]).lower())  # (connection, cursor, statement, ...)

    with database.transaction() as session:
        connection = session.connection()
        event.listen(connection, "before_cursor_execute", record)
        try:
            hooks.earliest_end(session, facts(uuid.uuid4(), 7))
        finally:
            event.remove(connection, "before_cursor_execute", record)
        session.rollback()
    assert len(statements) == 2, statements
    assert "from player_stats" in statements[0]
    assert "from leaderboard_totals" in statements[1]
    if database.write_engine.dialect.name == "postgresql":
        assert all("for update" in statement for statement in statements)
