"""The SQL of players' figures (``player_stats``). A player's games are the games face's
(:func:`api.games.player_games`); their account, keys and passkeys the accounts face's."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime

from sqlalchemy import (
    RowMapping,
    bindparam,
    case,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import BindParameter, Case

from api.core.database import Executor
from api.players.tables import player_stats as _stats

# A player's page shows every figure the row holds, so the row is read as it is (its
# columns by name), not copied into a record that repeats the table: a new figure is a column
# and the line of the page that shows it.
_FIGURES = tuple(column for column in _stats.c if column.name != "player_id")
# A new account's figures: nothing played yet.
NEW_FIGURES: Mapping[str, object] = {
    column.name: None if column.nullable else 0 for column in _FIGURES
}


def insert_stats(session: Session, player_id: uuid.UUID) -> None:
    """A new account's zeroed figures."""
    session.connection().execute(insert(_stats), {"player_id": player_id, **NEW_FIGURES})


def get_player_stats(session: Executor, player_id: uuid.UUID) -> RowMapping | None:
    """A player's figures, by column name."""
    return (
        session.execute(select(*_FIGURES).where(_stats.c.player_id == player_id)).mappings().first()
    )


def _latest(at: BindParameter[datetime]) -> Case[datetime]:
    """``last_played_at`` moved to ``at`` unless it is already later."""
    column = _stats.c.last_played_at
    return case((column.is_(None), at), (column < at, at), else_=column)


# Every statistic is updated in one statement that computes from the row's values at the
# moment it is written (``x = x + 1``): PostgreSQL locks the row for the UPDATE and
# re-evaluates the expressions on the latest version, so concurrent game ends never lose
# one another's counts; SQLite runs one writer at a time.
_GAME_STARTED = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_played=_stats.c.games_played + 1,
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)
_GAME_WON = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_won=_stats.c.games_won + 1,
        won_score_total=_stats.c.won_score_total + bindparam("score"),
        best_score=case(
            (_stats.c.best_score.is_(None), bindparam("score")),
            (_stats.c.best_score < bindparam("score"), bindparam("score")),
            else_=_stats.c.best_score,
        ),
        current_streak=_stats.c.current_streak + 1,
        longest_streak=case(
            (_stats.c.current_streak + 1 > _stats.c.longest_streak, _stats.c.current_streak + 1),
            else_=_stats.c.longest_streak,
        ),
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)
_GAME_LOST = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_lost=_stats.c.games_lost + 1,
        current_streak=0,
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)


def lock_player_stats(session: Session, player_id: uuid.UUID) -> None:
    """Hold a player's stats row until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL; SQLite's write transactions already hold the whole database)."""
    session.connection().execute(
        select(_stats.c.player_id).where(_stats.c.player_id == player_id).with_for_update()
    )


def count_game_started(session: Session, player_id: uuid.UUID, at: datetime) -> None:
    session.connection().execute(_GAME_STARTED, {"player": player_id, "at": at})


def count_game_finished(
    session: Session, player_id: uuid.UUID, score: int | None, at: datetime
) -> None:
    """Count a won game (``score`` given) or a lost one (``score`` None) in the player's stats."""
    if score is None:
        session.connection().execute(_GAME_LOST, {"player": player_id, "at": at})
    else:
        session.connection().execute(_GAME_WON, {"player": player_id, "score": score, "at": at})
