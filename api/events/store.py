"""The SQL of live events: a game's placements after a number and its state, the games in
progress, a recorded win, and the PostgreSQL notification that announces a change.

What a stream sends is always read here, from the database: a notification names what
changed and nothing more, so a lost or repeated one delays or repeats a read, never an event.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime
from typing import Any, NamedTuple, cast, get_args

import psycopg
from psycopg import sql
from sqlalchemy import Row, Table, and_, bindparam, or_, select, tuple_

from api.core.database import Executor
from api.core.models import GameRow, PlacementRecord, PlacementRow
from api.core.schemas import StatusName

# The one PostgreSQL channel every process listens on (one connection per process).
CHANNEL = "foursquare_events"

_games = cast(Table, GameRow.__table__)
_placements = cast(Table, PlacementRow.__table__)


class GameState(NamedTuple):
    """What a game's stream needs of the game itself: whether and how it ended."""

    status: str
    end_reason: str | None
    score: int | None
    placements_count: int
    challenge_date: date | None
    sealed: bool


class GameFeed(NamedTuple):
    """A game's state and its placements after a given number, first to last."""

    game: GameState
    placements: list[PlacementRecord]


# The game's columns and, joined on the same condition, its placements after :after: no row
# if there is no such game, one row with NULL placement columns if none is after :after.
_FEED = (
    select(
        _games.c.status,
        _games.c.end_reason,
        _games.c.score,
        _games.c.placements_count,
        _games.c.challenge_date,
        _games.c.sealed,
        *(_placements.c[name] for name in PlacementRecord._fields),
    )
    .select_from(
        _games.outerjoin(
            _placements,
            and_(_placements.c.game_id == _games.c.id, _placements.c.number > bindparam("after")),
        )
    )
    .where(_games.c.id == bindparam("id"))
    .order_by(_placements.c.number)
)
_STATE_COLUMNS = len(GameState._fields)


def game_feed(session: Executor, game_id: uuid.UUID, after: int) -> GameFeed | None:
    """The game's state and its placements numbered above ``after``; None if no such game.
    One statement: the state is as of the same snapshot as the placements, so an ``end``
    read with them never precedes a placement it follows."""
    rows = session.execute(_FEED, {"id": game_id, "after": after}).all()
    if not rows:
        return None
    state = GameState._make(rows[0][:_STATE_COLUMNS])
    placements = [
        PlacementRecord._make(row[_STATE_COLUMNS:])
        for row in rows
        if row[_STATE_COLUMNS] is not None
    ]
    return GameFeed(state, placements)


class GameInProgress(NamedTuple):
    id: uuid.UUID
    player: str
    registered: bool  # an account's game (a guest's has no player page)
    placements_count: int
    last_move_at: datetime | None
    created_at: datetime
    updated_at: datetime


_LAST_MOVE = (
    select(_placements.c.created_at)
    .where(
        _placements.c.game_id == _games.c.id,
        _placements.c.number == _games.c.placements_count,
    )
    .scalar_subquery()
)


_LISTED_COLUMNS = (
    _games.c.id,
    _games.c.player,
    _games.c.player_id.is_not(None),
    _games.c.placements_count,
    _LAST_MOVE,
    _games.c.created_at,
    _games.c.updated_at,
)


def _in_progress_statement(after: bool) -> Any:
    statement = (
        select(*_LISTED_COLUMNS)
        .where(
            _games.c.status == "in_progress",
            # Untouched longer than the expiry: abandoned, whether or not the expiry ran yet.
            _games.c.updated_at >= bindparam("touched_since", type_=_games.c.updated_at.type),
            # A daily challenge game is its player's only until its day closes, and a
            # race's game until its race ends.
            _games.c.sealed.is_(False),
            or_(
                _games.c.challenge_date.is_(None),
                _games.c.challenge_date < bindparam("today", type_=_games.c.challenge_date.type),
            ),
        )
        .order_by(_games.c.updated_at.desc(), _games.c.id.desc())
        .limit(bindparam("limit"))
    )
    if after:
        key = tuple_(_games.c.updated_at, _games.c.id)
        after_at = bindparam("after_at", type_=_games.c.updated_at.type)
        statement = statement.where(key < tuple_(after_at, bindparam("after_id")))
    return statement


_IN_PROGRESS = {after: _in_progress_statement(after) for after in (False, True)}


def games_in_progress(
    session: Executor,
    today: date,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
    touched_since: datetime,
) -> list[GameInProgress]:
    """Up to ``limit`` games in progress changed since ``touched_since``, last changed first
    (a range scan of ``ix_games_status_updated_at``), after the key ``after`` (updated_at,
    id) if given; daily challenge games of days still open (``today`` or later) left out."""
    parameters: dict[str, Any] = {"today": today, "limit": limit, "touched_since": touched_since}
    if after is not None:
        parameters |= {"after_at": after[0], "after_id": after[1]}
    rows = session.execute(_IN_PROGRESS[after is not None], parameters)
    return [GameInProgress._make(row) for row in rows]


class ListedGame(NamedTuple):
    """A game that began or ended, for the site's list of games being played."""

    listed: GameInProgress
    status: str
    end_reason: str | None
    challenge_date: date | None
    sealed: bool


_LISTED_GAMES = select(
    *_LISTED_COLUMNS,
    _games.c.status,
    _games.c.end_reason,
    _games.c.challenge_date,
    _games.c.sealed,
)
_LISTED = _LISTED_GAMES.where(_games.c.id == bindparam("id"))
# Every status named, so that the range scans are ix_games_status_updated_at's.
_LISTED_SINCE = (
    _LISTED_GAMES.where(
        _games.c.status.in_(get_args(StatusName)),
        _games.c.updated_at >= bindparam("since", type_=_games.c.updated_at.type),
    )
    .order_by(_games.c.updated_at, _games.c.id)
    .limit(bindparam("limit"))
)


def _listed(row: Row[Any]) -> ListedGame:
    size = len(GameInProgress._fields)
    return ListedGame(GameInProgress._make(row[:size]), *row[size:])


def listed_game(session: Executor, game_id: uuid.UUID) -> list[ListedGame]:
    """The game (none if there is no such game), as :func:`listed_since` answers."""
    return [_listed(row) for row in session.execute(_LISTED, {"id": game_id})]


def listed_since(session: Executor, since: datetime, limit: int) -> list[ListedGame]:
    """The games changed (begun, moved or ended) at or after ``since``, first changed
    first, at most ``limit``."""
    rows = session.execute(_LISTED_SINCE, {"since": since, "limit": limit})
    return [_listed(row) for row in rows]


async def notifications(conninfo: str) -> AsyncIterator[str]:
    """PostgreSQL: the payloads of :data:`CHANNEL`'s notifications as they arrive, on one
    connection of its own (``LISTEN`` holds it); ends with an error when it is lost."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
        await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        yield ""  # listening: what was notified before this has to be read anew
        async for notification in connection.notifies():
            yield notification.payload
