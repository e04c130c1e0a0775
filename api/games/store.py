"""The SQL of games and their placements, and the records it returns.

Functions here take the caller's session or connection and never commit: the unit of work
(:class:`api.core.database.Database`) does. Statements are SQLAlchemy Core on the feature's
tables (:mod:`api.games.tables`), built once where they have parameters, so that SQLAlchemy
finds their compiled form in its cache without walking a new statement on every request.
What other features read of the tables is in :mod:`api.games.queries`.
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import asdict, dataclass, fields
from datetime import date, datetime
from typing import Any, ClassVar, NamedTuple

from sqlalchemy import ColumnElement, bindparam, insert, or_, select, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert, Update

from api.accounts import bearer_key_hashes
from api.core import store as core_store
from api.core.database import Executor
from api.core.secrets import player_key_id
from api.games.tables import games as _games
from api.games.tables import placements as _placements


class PlacementRecord(NamedTuple):
    """A placement as a game's history and its live feed read it and a placement writes it
    (its game's id aside): one shape, so that :func:`api.games.records.placement_out` renders
    both."""

    number: int
    row: int
    col: int
    card: str
    flipped: list[dict[str, Any]]
    status_after: str
    created_at: datetime


class GameRecord(NamedTuple):
    """The columns of a game that a change to it needs: its secrets and engine state."""

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
    player_id: uuid.UUID | None  # the account that plays it; None for a guest
    # Read with the game (not a column of games): the hash of the key the request bears, if
    # it is one of that account's keys, so that it authorises the game's requests without
    # another round trip (None if the request bears no such key).
    player_key_hash: str | None
    # And the secret that key's last rotation replaced, accepted until the new one is first
    # used.
    player_previous_key_hash: str | None
    challenge_date: date | None  # the UTC day whose daily challenge this is
    sealed: bool  # a race's game until its race ends
    computer: bool  # the computer player's game
    deadline: datetime | None  # no placement is stored after it


class StoredView(NamedTuple):
    """What anyone may read of a game: its public columns and its stored snapshot
    (:mod:`api.games.snapshot`), without the engine state or any secret."""

    id: uuid.UUID
    player: str
    version: int
    status: str
    assisted: bool
    deck_commitment: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    challenge_date: date | None
    snapshot_format: str | None
    snapshot: str | None
    sealed: bool = False
    computer: bool = False
    review: str | None = None  # the fair-play review's word on a won game (api.fairplay)


@dataclass(frozen=True)
class NewGame:
    """A game dealt and not stored yet: what differs between new games. The rest of its row
    is the same for every new game (the class's constants, and :data:`_NEW_GAME`'s)."""

    id: uuid.UUID
    player: str
    token_hash: str
    seed: str | None
    salt: str
    deck_commitment: str
    state: str
    status: str
    created_at: datetime
    snapshot: str
    snapshot_format: str
    player_id: uuid.UUID | None
    challenge_date: date | None
    sealed: bool
    computer: bool = False
    deadline: datetime | None = None

    # Not fields: what every new game starts as, read as a stored game's are.
    version: ClassVar[int] = 1
    assisted: ClassVar[bool] = False  # no hint asked yet
    finished_at: ClassVar[None] = None

    @property
    def updated_at(self) -> datetime:
        return self.created_at


_NEW_GAME_FIELDS = tuple(field.name for field in fields(NewGame))
# The columns of a new game's row that no game starts with a value in.
_NEW_GAME = {"end_reason": None, "score": None, "placements_count": 0}


@dataclass(frozen=True)
class GameChange:
    """A game's columns after a placement or its end as abandoned: what the guarded
    ``UPDATE`` writes (the version is bumped by it)."""

    state: str
    status: str
    end_reason: str | None
    score: int | None
    placements_count: int
    updated_at: datetime
    finished_at: datetime | None
    snapshot: str
    snapshot_format: str
    # ``pending`` for a win that the fair-play review must see before any public board
    # (:attr:`api.games.hooks.GameFacts.reviewed`); None otherwise.
    review: str | None = None


# The snapshot columns keep their names from before they held a storage format (migration
# 0005 made them for rendered responses); the records call them what they hold now.
_COLUMN = {"snapshot": "public_json", "snapshot_format": "public_format"}


def _column(name: str) -> str:
    return _COLUMN.get(name, name)


# The hashes of the key the request's bearer names (``key_id``), if it is one of the keys of
# the game's player (NULL otherwise): read with the game, in its one statement.
_BEARER_KEY_HASH, _BEARER_PREVIOUS_HASH = bearer_key_hashes(_games.c.player_id)
_PLAYER_KEY_HASH = _BEARER_KEY_HASH.label("player_key_hash")
_PLAYER_PREVIOUS_KEY_HASH = _BEARER_PREVIOUS_HASH.label("player_previous_key_hash")
_FROM_PLAYERS = {
    "player_key_hash": _PLAYER_KEY_HASH,
    "player_previous_key_hash": _PLAYER_PREVIOUS_KEY_HASH,
}
_GAME_COLUMNS = tuple(
    _FROM_PLAYERS[name] if name in _FROM_PLAYERS else _games.c[name] for name in GameRecord._fields
)
_GAME = select(*_GAME_COLUMNS).where(_games.c.id == bindparam("id"))
_VIEW_COLUMNS = tuple(_games.c[_column(name)] for name in StoredView._fields)
_VIEW = select(*_VIEW_COLUMNS).where(_games.c.id == bindparam("id"))
_VERSION = select(_games.c.version).where(_games.c.id == bindparam("id"))
# A history in one statement, with the game's challenge day (whether it is private): no row
# at all if the game does not exist, one row of NULLs and the day if it has no placements.
_HISTORY = (
    select(
        *(_placements.c[name] for name in PlacementRecord._fields),
        _games.c.challenge_date,
        _games.c.sealed,
    )
    .select_from(_games.outerjoin(_placements, _placements.c.game_id == _games.c.id))
    .where(_games.c.id == bindparam("id"))
    .order_by(_placements.c.number)
)
# Games in progress untouched since a cutoff, oldest first: a range scan of
# ix_games_status_updated_at (migration 0007).
_UNTOUCHED = (
    select(*_GAME_COLUMNS)
    .where(_games.c.status == "in_progress", _games.c.updated_at < bindparam("cutoff"))
    .order_by(_games.c.updated_at, _games.c.id)
    .limit(bindparam("limit"))
)
_UNFINISHED_CHALLENGES = (
    select(*_GAME_COLUMNS)
    .where(
        _games.c.status == "in_progress",
        _games.c.challenge_date < bindparam("day", type_=_games.c.challenge_date.type),
    )
    .order_by(_games.c.challenge_date, _games.c.id)
    .limit(bindparam("limit"))
)
_CHALLENGE_GAME = select(_games.c.id).where(
    _games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type),
    _games.c.player_id == bindparam("player"),
)
_INSERT_GAME = insert(_games)
_INSERT_PLACEMENT = insert(_placements)


def get_game(session: Executor, game_id: uuid.UUID, bearer: str | None = None) -> GameRecord | None:
    """The game; with the request's ``bearer``, the hash of the player's key it names, if
    any (:func:`api.games.access.authorize`)."""
    key_id = None if bearer is None else player_key_id(bearer)
    row = session.execute(_GAME, {"id": game_id, "key_id": key_id}).first()
    return None if row is None else GameRecord._make(row)


def get_view(session: Executor, game_id: uuid.UUID) -> StoredView | None:
    row = session.execute(_VIEW, {"id": game_id}).first()
    return None if row is None else StoredView._make(row)


def challenge_game_id(session: Executor, player_id: uuid.UUID, day: date) -> uuid.UUID | None:
    """The player's game of ``day``'s challenge, if they started one."""
    found: uuid.UUID | None = session.execute(
        _CHALLENGE_GAME, {"day": day, "player": player_id}
    ).scalar()
    return found


def get_version(session: Executor, game_id: uuid.UUID) -> int | None:
    version: int | None = session.execute(_VERSION, {"id": game_id}).scalar()
    return version


def get_history(
    session: Executor, game_id: uuid.UUID
) -> tuple[list[PlacementRecord], date | None, bool] | None:
    """The game's placements in order, its challenge day (None for an ordinary game) and
    whether its race seals it, or None if there is no such game."""
    rows = session.execute(_HISTORY, {"id": game_id}).all()
    if not rows:
        return None
    history = [PlacementRecord._make(row[:-2]) for row in rows if row[0] is not None]
    return history, rows[0][-2], rows[0][-1]


def games_untouched_since(session: Executor, cutoff: datetime, limit: int) -> list[GameRecord]:
    """Up to ``limit`` games in progress last changed before ``cutoff``, oldest first."""
    rows = session.execute(_UNTOUCHED, {"cutoff": cutoff, "limit": limit, "key_id": None})
    return [GameRecord._make(row) for row in rows]


def challenge_games_in_progress_before(
    session: Executor, day: date, limit: int
) -> list[GameRecord]:
    """Up to ``limit`` challenge games still in progress of days before ``day`` (closed days:
    they can take no more placements)."""
    rows = session.execute(_UNFINISHED_CHALLENGES, {"day": day, "limit": limit, "key_id": None})
    return [GameRecord._make(row) for row in rows]


@functools.cache
def _update_statement(columns: tuple[str, ...], bump: bool, timed: bool = False) -> Update:
    """``UPDATE games SET <columns> [, version = :v + 1] WHERE id = :id AND version = :v``;
    ``timed``: and the game's deadline, if it has one, is after the change's ``updated_at``."""
    values: dict[str, Any] = {_column(name): bindparam(f"new_{name}") for name in columns}
    if bump:
        values["version"] = bindparam("new_version")
    statement = update(_games).where(
        _games.c.id == bindparam("key_id"), _games.c.version == bindparam("key_version")
    )
    if timed:
        in_time = _games.c.deadline > bindparam("new_updated_at", type_=_games.c.deadline.type)
        statement = statement.where(or_(_games.c.deadline.is_(None), in_time))
    return statement.values(**values)


def _update_parameters(
    game_id: uuid.UUID, version: int, values: dict[str, Any]
) -> tuple[tuple[str, ...], dict[str, Any]]:
    columns = tuple(sorted(values))
    parameters = {f"new_{name}": values[name] for name in columns}
    parameters |= {"key_id": game_id, "key_version": version, "new_version": version + 1}
    return columns, parameters


def _update_if_version(
    session: Session, game_id: uuid.UUID, version: int, values: dict[str, Any], *, bump: bool
) -> bool:
    columns, parameters = _update_parameters(game_id, version, values)
    result = session.connection().execute(_update_statement(columns, bump), parameters)
    return result.rowcount == 1


def change_game(session: Session, game_id: uuid.UUID, version: int, change: GameChange) -> bool:
    """Write ``change`` if the game is still at ``version`` (bumping it); True if it was.
    Of two changes planned on the same version, whichever writes second matches no row."""
    return _update_if_version(session, game_id, version, asdict(change), bump=True)


def mark_assisted(session: Session, game_id: uuid.UUID, version: int, updated_at: datetime) -> bool:
    """Mark a game assisted (a hint was asked for), bumping its version, if it is still at
    ``version``."""
    values = {"assisted": True, "updated_at": updated_at}
    return _update_if_version(session, game_id, version, values, bump=True)


def store_snapshot(
    session: Session, game_id: uuid.UUID, version: int, snapshot_format: str, snapshot: str
) -> bool:
    """Replace a game's stored snapshot with one made anew, if the game is still at
    ``version`` (the snapshot is derived data: the version does not change)."""
    values = {"snapshot": snapshot, "snapshot_format": snapshot_format}
    return _update_if_version(session, game_id, version, values, bump=False)


@functools.cache
def _move_statement(columns: tuple[str, ...], notifications: int) -> ReturningInsert[Any]:
    """PostgreSQL: the guarded UPDATE of a game and the INSERT of its placement as one
    statement; the placement is inserted (and returned) only if the update matched, and the
    transaction's waiting notifications sent with it (:func:`api.core.store.notify`), by
    the ``pg_notify`` columns it returns, only then."""
    moved = _update_statement(columns, True, True).returning(_games.c.id).cte("moved")
    names = list(PlacementRecord._fields)
    values = (bindparam(f"placement_{name}", type_=_placements.c[name].type) for name in names)
    return (
        insert(_placements)
        .from_select(["game_id", *names], select(moved.c.id, *values))
        .returning(_placements.c.number, *core_store.notify_columns(notifications))
    )


def move_game(
    session: Session,
    game_id: uuid.UUID,
    version: int,
    change: GameChange,
    placement: PlacementRecord,
) -> bool:
    """Store a placement: the game's ``change`` if it is still at ``version`` (see
    :func:`change_game`) and its deadline, if any, is after the change, and the placement's
    row; False, and nothing stored, if the game had moved on or its time was up. One round
    trip on PostgreSQL (with the notifications waiting in the transaction, such as the
    placement's own), two elsewhere."""
    connection = session.connection()
    columns, parameters = _update_parameters(game_id, version, asdict(change))
    if connection.dialect.name != "postgresql":
        moved = connection.execute(_update_statement(columns, True, True), parameters)
        if moved.rowcount != 1:
            return False
        insert_placement(session, game_id, placement)
        return True
    parameters |= {f"placement_{name}": value for name, value in placement._asdict().items()}
    notifications, notify_parameters = core_store.carry_notifications(session)
    statement = _move_statement(columns, notifications)
    return connection.execute(statement, parameters | notify_parameters).first() is not None


_VIEWS = select(*_VIEW_COLUMNS).where(_games.c.id.in_(bindparam("ids", expanding=True)))


def get_views(session: Executor, game_ids: list[uuid.UUID]) -> list[StoredView]:
    """The games' public columns and stored snapshots, in no order."""
    return [StoredView._make(row) for row in session.execute(_VIEWS, {"ids": game_ids})]


def unseal(session: Session, game_ids: list[uuid.UUID]) -> None:
    """The games are public from now on (a finished game's next read makes its snapshot
    again, with its reveal)."""
    statement = update(_games).where(_games.c.id.in_(game_ids)).values(sealed=False)
    session.connection().execute(statement)


def insert_game(session: Session, game: NewGame) -> None:
    values = {_column(name): getattr(game, name) for name in _NEW_GAME_FIELDS}
    values.update(
        _NEW_GAME,
        version=game.version,
        assisted=game.assisted,
        updated_at=game.updated_at,
        finished_at=game.finished_at,
    )
    session.connection().execute(_INSERT_GAME, values)


def insert_placement(session: Session, game_id: uuid.UUID, placement: PlacementRecord) -> None:
    session.connection().execute(_INSERT_PLACEMENT, {"game_id": game_id, **placement._asdict()})


# ---------------------------------------------------------------- the fair-play review's word


def set_review(
    session: Session, game_ids: list[uuid.UUID], review: str | None, only_from: tuple[str, ...]
) -> int:
    """Set the fair-play review's word on games whose word is one of ``only_from`` (``""``
    stands for none): the version stays, as a game's ETag follows its moves, not its
    standing. Returns how many changed."""
    if not game_ids:
        return 0
    current: ColumnElement[bool] = _games.c.review.in_([word for word in only_from if word])
    if "" in only_from:
        current = or_(current, _games.c.review.is_(None))
    result = session.execute(
        update(_games).where(_games.c.id.in_(game_ids), current).values(review=review)
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def get_reviews(session: Executor, game_ids: list[uuid.UUID]) -> dict[uuid.UUID, str | None]:
    """The fair-play review's word on each game of ``game_ids`` (None: no word), by id."""
    if not game_ids:
        return {}
    statement = select(_games.c.id, _games.c.review).where(_games.c.id.in_(game_ids))
    return {game_id: review for game_id, review in session.execute(statement)}


class WonGame(NamedTuple):
    """A won game as the boards need it to put it back."""

    id: uuid.UUID
    player: str
    player_id: uuid.UUID | None
    score: int
    placements_count: int
    finished_at: datetime
    challenge_date: date | None
    assisted: bool
    review: str | None


_WON_BY = select(*(_games.c[name] for name in WonGame._fields)).where(
    _games.c.player_id == bindparam("player"),
    _games.c.status == "won",
    _games.c.computer.is_(False),
    _games.c.sealed.is_(False),
)


def won_games_of(session: Executor, player_id: uuid.UUID) -> list[WonGame]:
    """An account's won games that a public board may hold (neither the computer's nor a
    race's still sealed), oldest first."""
    rows = session.execute(_WON_BY.order_by(_games.c.finished_at), {"player": player_id})
    return [WonGame._make(row) for row in rows]
