"""The SQL of the service's transactions, and the records every read returns.

Functions here take a session and never commit. The hot public reads (a game, its history, a
leaderboard page) run the same queries on the event loop instead: see :mod:`api.reads`.
"""

from __future__ import annotations

import functools
import uuid
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    Insert,
    Table,
    Update,
    bindparam,
    delete,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.orm import Session

from api.models import GameRow, IdempotencyKeyRow, PlacementRow, ScoreRow


class GameRecord(NamedTuple):
    """The columns of a game that requests use, read without the ORM."""

    id: uuid.UUID
    player: str
    token_hash: str
    salt: str
    deck_commitment: str
    state: str  # engine state, JSON (see engine.Game.to_dict); holds the secret stock
    version: int
    assisted: bool
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    public_json: str | None  # GameOut as JSON, rendered when the row was written


class PlacementRecord(NamedTuple):
    """One row of ``placements`` (without its game id)."""

    number: int
    row: int
    col: int
    card: str
    flipped: list[dict[str, Any]]
    status_after: str
    created_at: datetime


class ScoreRecord(NamedTuple):
    """One row of ``scores``: a won game on the leaderboard."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool


_games = cast(Table, GameRow.__table__)
_placements = cast(Table, PlacementRow.__table__)
_scores = cast(Table, ScoreRow.__table__)
_GAME_BY_ID = select(*(_games.c[name] for name in GameRecord._fields)).where(
    _games.c.id == bindparam("id")
)

LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)


def add(session: Session, *rows: GameRow | PlacementRow | ScoreRow | IdempotencyKeyRow) -> None:
    """Stage new rows; they are written when the session flushes or commits."""
    session.add_all(rows)


def get_game(session: Session, game_id: uuid.UUID) -> GameRecord | None:
    row = session.execute(_GAME_BY_ID, {"id": game_id}).first()
    return None if row is None else GameRecord(*row)


def get_game_version(session: Session, game_id: uuid.UUID) -> int | None:
    version: int | None = session.scalar(select(_games.c.version).where(_games.c.id == game_id))
    return version


@functools.cache
def _update_game_statement(columns: tuple[str, ...]) -> Update:
    # Built once per set of columns and run with parameters: the statement's compiled form is
    # then found in SQLAlchemy's cache without walking the values again (a new statement
    # carrying a 1 KB state as a literal cost more than the UPDATE itself).
    return (
        update(_games)
        .where(_games.c.id == bindparam("key_id"), _games.c.version == bindparam("key_version"))
        .values(
            version=bindparam("new_version"),
            **{column: bindparam(f"new_{column}") for column in columns},
        )
    )


_INSERT_GAME = insert(_games)
_INSERT_PLACEMENT = insert(_placements)
_INSERT_SCORE = insert(_scores)


def _update_game_parameters(
    game_id: uuid.UUID, version: int, values: dict[str, Any]
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The columns of :func:`_update_game_statement` for ``values``, and its parameters."""
    columns = tuple(sorted(values))
    parameters = {f"new_{column}": values[column] for column in columns}
    parameters |= {"key_id": game_id, "key_version": version, "new_version": version + 1}
    return columns, parameters


def update_game_if_version(
    session: Session, game_id: uuid.UUID, version: int, values: dict[str, Any]
) -> bool:
    """``UPDATE games SET ..., version = :v + 1 WHERE id = :id AND version = :v``; True if the
    game was still at ``version``."""
    columns, parameters = _update_game_parameters(game_id, version, values)
    result = session.connection().execute(_update_game_statement(columns), parameters)
    return result.rowcount == 1


@functools.cache
def _move_statement(columns: tuple[str, ...]) -> Insert:
    """PostgreSQL: the guarded UPDATE of a game and the INSERT of its placement as one
    statement; the placement is inserted (and returned) only if the update matched."""
    moved = _update_game_statement(columns).returning(_games.c.id).cte("moved")
    names = list(PlacementRecord._fields)
    values = (bindparam(f"placement_{name}", type_=_placements.c[name].type) for name in names)
    return (
        insert(_placements)
        .from_select(["game_id", *names], select(moved.c.id, *values))
        .returning(_placements.c.number)
    )


def move_game(
    session: Session,
    game_id: uuid.UUID,
    version: int,
    values: dict[str, Any],
    placement: PlacementRecord,
) -> bool:
    """Store a placement: the game's new ``values`` if it is still at ``version`` (see
    :func:`update_game_if_version`) and the placement's row; False, and nothing stored, if the
    game had moved on. One round trip on PostgreSQL, two elsewhere."""
    connection = session.connection()
    if connection.dialect.name != "postgresql":
        if not update_game_if_version(session, game_id, version, values):
            return False
        insert_placement(session, game_id, placement)
        return True
    columns, parameters = _update_game_parameters(game_id, version, values)
    parameters |= {f"placement_{name}": value for name, value in placement._asdict().items()}
    return connection.execute(_move_statement(columns), parameters).first() is not None


def insert_game(session: Session, values: dict[str, Any]) -> None:
    session.connection().execute(_INSERT_GAME, values)


def insert_placement(session: Session, game_id: uuid.UUID, placement: PlacementRecord) -> None:
    session.connection().execute(_INSERT_PLACEMENT, {"game_id": game_id, **placement._asdict()})


def insert_score(session: Session, score: ScoreRecord) -> None:
    session.connection().execute(_INSERT_SCORE, score._asdict())


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
