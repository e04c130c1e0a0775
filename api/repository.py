"""All SQL of the service. Functions take a session and never commit."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, cast

from sqlalchemy import delete, select, text, tuple_, update
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError

from api.models import GameRow, IdempotencyKeyRow, PlacementRow, ScoreRow


class ScoreEntry(Protocol):
    """A leaderboard row as read (plain columns of ``scores``)."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool


LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)
_SCORE_COLUMNS = (
    ScoreRow.game_id,
    ScoreRow.player,
    ScoreRow.score,
    ScoreRow.sort_score,
    ScoreRow.finished_at,
    ScoreRow.assisted,
)
_KEY_TYPES = [ScoreRow.sort_score.type, ScoreRow.finished_at.type, ScoreRow.game_id.type]


def add(session: Session, *rows: GameRow | PlacementRow | ScoreRow | IdempotencyKeyRow) -> None:
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


def update_game_if_version(
    session: Session, game_id: uuid.UUID, version: int, values: dict[str, Any]
) -> bool:
    """``UPDATE games SET ..., version = :v + 1 WHERE id = :id AND version = :v``; True if the
    game was still at ``version``."""
    result = session.execute(
        update(GameRow)
        .where(GameRow.id == game_id, GameRow.version == version)
        .values(version=version + 1, **values)
        .execution_options(synchronize_session=False)
    )
    return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def placements_of(session: Session, game_id: uuid.UUID) -> Sequence[PlacementRow]:
    return session.scalars(
        select(PlacementRow).where(PlacementRow.game_id == game_id).order_by(PlacementRow.number)
    ).all()


def leaderboard_page(
    session: Session, after: LeaderboardKey | None, limit: int, *, include_assisted: bool
) -> Sequence[ScoreEntry]:
    """One page of the leaderboard: a single range scan of ``ix_scores_leaderboard`` (or, for
    unassisted games only, of ``ix_scores_leaderboard_by_assistance``)."""
    # Plain columns, not ORM objects: a page is 100 rows and nothing here is ever changed.
    query = select(*_SCORE_COLUMNS).order_by(
        ScoreRow.sort_score, ScoreRow.finished_at, ScoreRow.game_id
    )
    if not include_assisted:
        query = query.where(ScoreRow.assisted.is_(False))
    if after is not None:
        query = query.where(
            tuple_(ScoreRow.sort_score, ScoreRow.finished_at, ScoreRow.game_id)
            > tuple_(*after, types=_KEY_TYPES)
        )
    return cast("Sequence[ScoreEntry]", session.execute(query.limit(limit)).all())


def ping(session: Session) -> None:
    session.execute(text("SELECT 1"))


def get_idempotency_key(session: Session, scope: str, key: str) -> IdempotencyKeyRow | None:
    return session.get(IdempotencyKeyRow, (scope, key))


def complete_idempotency_key(
    session: Session,
    scope: str,
    key: str,
    status: int,
    body: str,
    headers: dict[str, str],
    now: datetime,
) -> None:
    session.execute(
        update(IdempotencyKeyRow)
        .where(IdempotencyKeyRow.scope == scope, IdempotencyKeyRow.key == key)
        .values(status_code=status, response_body=body, response_headers=headers, completed_at=now)
        .execution_options(synchronize_session=False)
    )


def delete_idempotency_key(session: Session, scope: str, key: str) -> None:
    session.execute(
        delete(IdempotencyKeyRow).where(
            IdempotencyKeyRow.scope == scope, IdempotencyKeyRow.key == key
        )
    )


def delete_idempotency_keys_before(session: Session, cutoff: datetime) -> int:
    result = session.execute(delete(IdempotencyKeyRow).where(IdempotencyKeyRow.created_at < cutoff))
    return int(result.rowcount)  # type: ignore[attr-defined]
