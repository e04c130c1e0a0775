"""All SQL of the service. Functions take a session and never commit."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, text, tuple_
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from api.models import GameRow, PlacementRow, ScoreRow

LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)
_KEY_TYPES = [ScoreRow.sort_score.type, ScoreRow.finished_at.type, ScoreRow.game_id.type]


def add(session: Session, *rows: GameRow | PlacementRow | ScoreRow) -> None:
    """Stage new rows; they are written when the session flushes or commits."""
    session.add_all(rows)


def get_game(session: Session, game_id: uuid.UUID) -> GameRow | None:
    return session.get(GameRow, game_id)


def flush(session: Session) -> bool:
    """Write the staged changes now; False if a versioned row changed underneath.

    Updating a game runs ``UPDATE games SET ..., version = :v + 1 WHERE id = :id AND
    version = :v`` (the mapper's ``version_id_col``). Of two placements that read the same
    version, whichever writes second matches no row, and nothing of it is stored.
    """
    try:
        session.flush()
    except StaleDataError:
        return False
    return True


def placements_of(session: Session, game_id: uuid.UUID) -> Sequence[PlacementRow]:
    return session.scalars(
        select(PlacementRow).where(PlacementRow.game_id == game_id).order_by(PlacementRow.number)
    ).all()


def leaderboard_page(
    session: Session, after: LeaderboardKey | None, limit: int
) -> Sequence[ScoreRow]:
    """One page of the leaderboard: a single range scan of ``ix_scores_leaderboard``."""
    query = select(ScoreRow).order_by(ScoreRow.sort_score, ScoreRow.finished_at, ScoreRow.game_id)
    if after is not None:
        query = query.where(
            tuple_(ScoreRow.sort_score, ScoreRow.finished_at, ScoreRow.game_id)
            > tuple_(*after, types=_KEY_TYPES)
        )
    return session.scalars(query.limit(limit)).all()


def ping(session: Session) -> None:
    session.execute(text("SELECT 1"))
