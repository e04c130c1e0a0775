"""The SQL of players' figures (``player_stats``). A player's games are the games face's
(:func:`api.games.player_games`); their account, keys and passkeys the accounts face's."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import (
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


class PlayerStatsRecord(NamedTuple):
    """A player's figures, as their page shows them."""

    games_played: int
    games_won: int
    games_lost: int
    won_score_total: int
    best_score: int | None
    current_streak: int
    longest_streak: int
    last_played_at: datetime | None


def insert_stats(session: Session, player_id: uuid.UUID) -> None:
    """A new account's zeroed figures."""
    zero = PlayerStatsRecord(0, 0, 0, 0, None, 0, 0, None)
    session.connection().execute(insert(_stats), {"player_id": player_id, **zero._asdict()})


def get_player_stats(session: Executor, player_id: uuid.UUID) -> PlayerStatsRecord | None:
    row = session.execute(
        select(*(_stats.c[name] for name in PlayerStatsRecord._fields)).where(
            _stats.c.player_id == player_id
        )
    ).first()
    return None if row is None else PlayerStatsRecord(*row)


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
