"""The SQL that answers what other features read of games, each question in one statement
as its caller needs it: a player's games page (players), a game's live feed and the games in
progress or changed since a moment (events), a day's challenge counts and board (challenges),
and the join that says whether a won game is an account's (leaderboards).

The games feature owns ``games`` and ``placements`` (issue 52: one owner per table): these
statements are the ones the other features' stores made on them before, the same text and
the same round trips; the games face (:mod:`api.games`) offers them.
"""

from __future__ import annotations

import functools
import uuid
from datetime import date, datetime
from typing import Any, NamedTuple, get_args

from sqlalchemy import (
    FromClause,
    Join,
    Label,
    Row,
    Select,
    and_,
    bindparam,
    case,
    func,
    or_,
    select,
    tuple_,
)

from api.core.database import Executor
from api.core.schemas import StatusName
from api.games.store import PlacementRecord
from api.games.tables import games as _games
from api.games.tables import placements as _placements


class PlayerGameRecord(NamedTuple):
    """A line of a player's games page."""

    id: uuid.UUID
    status: str
    end_reason: str | None
    score: int | None
    placements_count: int
    assisted: bool
    created_at: datetime
    finished_at: datetime | None
    challenge_date: date | None
    review: str | None


PlayerGamesKey = tuple[datetime, uuid.UUID]  # (created_at, id), newest first


@functools.cache
def _player_games_statement(by_status: bool, after: bool) -> Select[Any]:
    """One range scan of ``ix_games_player_games`` from the newest game down."""
    # A race's game is its racer's only until the race ends: no id of it is listed before.
    statement = select(*(_games.c[name] for name in PlayerGameRecord._fields)).where(
        _games.c.player_id == bindparam("player"), _games.c.sealed.is_(False)
    )
    if by_status:
        statement = statement.where(_games.c.status == bindparam("status"))
    if after:
        created = bindparam("created_at", type_=_games.c.created_at.type)
        game_id = bindparam("game_id", type_=_games.c.id.type)
        statement = statement.where(
            tuple_(_games.c.created_at, _games.c.id) < tuple_(created, game_id)
        )
    return statement.order_by(_games.c.created_at.desc(), _games.c.id.desc()).limit(
        bindparam("limit")
    )


def player_games(
    session: Executor,
    player_id: uuid.UUID,
    status: str | None,
    after: PlayerGamesKey | None,
    limit: int,
) -> list[PlayerGameRecord]:
    """A player's games, newest first, after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"player": player_id, "limit": limit}
    if status is not None:
        parameters["status"] = status
    if after is not None:
        parameters["created_at"], parameters["game_id"] = after
    statement = _player_games_statement(status is not None, after is not None)
    return [PlayerGameRecord(*row) for row in session.execute(statement, parameters)]


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


class ChallengeEntryRecord(NamedTuple):
    """A won game of one day's challenge, as its board lists it."""

    game_id: uuid.UUID
    player: str
    score: int
    finished_at: datetime
    assisted: bool


ChallengeBoardKey = tuple[int, datetime, uuid.UUID]  # (score, finished_at, game_id)

_CHALLENGE_COUNTS = select(
    func.count(),
    func.coalesce(func.sum(case((_games.c.status == "won", 1), else_=0)), 0),
).where(_games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type))


def challenge_counts(session: Executor, day: date) -> tuple[int, int]:
    """How many games of ``day``'s challenge were started, and how many are won: a range
    scan of ``uq_games_challenge_date``."""
    played, won = session.execute(_CHALLENGE_COUNTS, {"day": day}).one()
    return int(played), int(won)


@functools.cache
def _challenge_board_statement(after: bool) -> Select[uuid.UUID, str, int, datetime, bool]:
    """The day's won, unassisted challenge games, best score first, earlier finish first.

    A range scan of ``uq_games_challenge_date`` for the day, sorted: a day's challenge holds
    at most one game per player, so the sort is over that day's games only."""
    columns = (_games.c[name] for name in ChallengeEntryRecord._fields[1:])
    statement = select(_games.c.id, *columns).where(
        _games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type),
        _games.c.status == "won",
        _games.c.assisted == bindparam("assisted"),
        # On the board once the fair-play review has found it clean (or a moderator cleared
        # it); NULL for the wins from before the review (api.fairplay).
        or_(_games.c.review.is_(None), _games.c.review.in_(("clean", "cleared"))),
    )
    if after:
        score = bindparam("score", type_=_games.c.score.type)
        later = tuple_(_games.c.finished_at, _games.c.id) > tuple_(
            bindparam("finished_at", type_=_games.c.finished_at.type),
            bindparam("game_id", type_=_games.c.id.type),
        )
        statement = statement.where(
            or_(_games.c.score < score, and_(_games.c.score == score, later))
        )
    return statement.order_by(_games.c.score.desc(), _games.c.finished_at, _games.c.id).limit(
        bindparam("limit")
    )


def challenge_board(
    session: Executor, day: date, after: ChallengeBoardKey | None, limit: int
) -> list[ChallengeEntryRecord]:
    """``day``'s challenge board after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"day": day, "assisted": False, "limit": limit}
    if after is not None:
        parameters["score"], parameters["finished_at"], parameters["game_id"] = after
    statement = _challenge_board_statement(after is not None)
    return [ChallengeEntryRecord._make(row) for row in session.execute(statement, parameters)]


_CHALLENGE_DAYS = (
    select(_games.c.challenge_date, _games.c.status == "won")
    .where(
        _games.c.player_id == bindparam("player_id", type_=_games.c.player_id.type),
        _games.c.challenge_date.is_not(None),
        _games.c.status != "in_progress",
    )
    .order_by(_games.c.challenge_date)
)


def challenge_days(session: Executor, player_id: uuid.UUID) -> list[tuple[date, bool]]:
    """The UTC days whose daily challenge the player finished, oldest first, and whether they
    won it: one range of ``ix_games_player_challenges`` (a player plays a day's challenge
    once), from which their page counts its streaks."""
    rows = session.execute(_CHALLENGE_DAYS, {"player_id": player_id})
    return [(day, bool(won)) for day, won in rows]


# Whether a game is an account's: the column the boards list with each entry.
_REGISTERED = _games.c.player_id.is_not(None).label("registered")


def with_registered(table: FromClause) -> tuple[Join, Label[bool]]:
    """``table`` (a board's, with a ``game_id`` column) joined to its games, and the column
    saying whether each game is an account's (a guest's name has no player page to link to).

    A join, not a question of its own: the boards read ``registered`` with their entries in
    the board's one statement (a second round trip per page would make every board read
    slower), and keep no copy of ``games.player_id`` that a change could leave behind."""
    return table.join(_games, _games.c.id == table.c.game_id), _REGISTERED
