"""The SQL of the leaderboards: recording a win on every board, pages in board order, a
won game's rank and standing, and each board's size.

Ranks are counted, not numbered: ``leaderboard_totals`` (wins by score) and
``leaderboard_days`` (wins by day and score) are counters that :func:`record_win` bumps in
the transaction that ends a game, and each ``scores`` row keeps its ordinals (its place
among its score's wins when it was recorded). A rank is then a sum over at most 25 counter
rows plus an ordinal, whatever the board's size. :mod:`api.leaderboards.recount` checks
these figures against a recount and rebuilds them.
"""

from __future__ import annotations

import functools
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Select,
    Table,
    and_,
    bindparam,
    func,
    insert,
    or_,
    select,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session
from sqlalchemy.sql.dml import ReturningInsert
from sqlalchemy.sql.elements import Tuple

from api.core.database import Executor
from api.core.models import (
    GameRow,
    LeaderboardBestRow,
    LeaderboardDayRow,
    LeaderboardRevisionRow,
    LeaderboardTotalRow,
    ScoreRow,
)


class ScoreRecord(NamedTuple):
    """One row of ``scores``: a won game on the leaderboard."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool


LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)

games = cast(Table, GameRow.__table__)
scores = cast(Table, ScoreRow.__table__)
totals = cast(Table, LeaderboardTotalRow.__table__)
days = cast(Table, LeaderboardDayRow.__table__)
bests = cast(Table, LeaderboardBestRow.__table__)
revision = cast(Table, LeaderboardRevisionRow.__table__)
_REVISION = select(revision.c.revision).where(revision.c.id == 1)
_INSERT_SCORE = insert(scores)

ALL_TIME = date(2000, 1, 1)  # ``leaderboard_bests.starts_on`` of the all-time boards
PERIODS = ("all", "day", "week")


class Listing(NamedTuple):
    """One listing of won games: a period (``all``, ``day``, ``week``) and the first day of
    the day or week (None for ``all``), every game or each player's best (``per_player``),
    with or without the games whose player asked for hints."""

    period: str
    starts_on: date | None
    per_player: bool
    with_assisted: bool


class NewWin(NamedTuple):
    """What recording a won game needs beyond its ``scores`` row's public columns."""

    score: ScoreRecord
    player_key: str  # api.core.names.name_skeleton of the player's name


def week_of(day: date) -> date:
    """The Monday of ``day``'s ISO week: the first day of its week board."""
    return day - timedelta(days=day.weekday())


def last_win_of_score(session: Session, score: int) -> datetime | None:
    """Lock the count of wins with ``score`` until the transaction ends, and return the
    latest ``finished_at`` among them: a new win of that score is stamped later, so that
    ordinals (the order wins are counted in) follow the leaderboard's order. ``SELECT ... FOR
    UPDATE`` on PostgreSQL; SQLite's write transactions already hold the whole database."""
    row = session.connection().execute(_LOCK_TOTAL, {"of_score": score}).first()
    if row is None:
        raise LookupError(f"no leaderboard_totals row for score {score}: run the migrations")
    last: datetime | None = row[0]
    return last


def record_win(session: Session, win: NewWin) -> None:
    """Put a won game on every board in the transaction that ends it: count it (its
    ordinals are the counts after it), store its ``scores`` row, and make it its player's
    best where it beats what they had. The caller holds :func:`last_win_of_score`'s lock
    and stamped ``finished_at`` after that function's answer."""
    connection = session.connection()
    score = win.score
    plain = 0 if score.assisted else 1
    day = score.finished_at.astimezone(UTC).date()
    week = week_of(day)
    total = connection.execute(
        _COUNT_WIN, {"of_score": score.score, "plain": plain, "at": score.finished_at}
    ).one()
    daily = connection.execute(
        _count_day_statement(connection.dialect.name),
        {"week": week, "day": day, "score": score.score, "wins": 1, "wins_unassisted": plain},
    ).one()
    connection.execute(
        _INSERT_SCORE,
        {
            **score._asdict(),
            "player_key": win.player_key,
            "day": day,
            "week": week,
            "ordinal": total.wins,
            "ordinal_unassisted": total.wins_unassisted if plain else None,
            "day_ordinal": daily.wins,
            "day_ordinal_unassisted": daily.wins_unassisted if plain else None,
        },
    )
    listings = (True, False) if plain else (True,)
    connection.execute(
        _best_statement(connection.dialect.name),
        [
            {
                "board": board,
                "starts_on": starts_on,
                "with_assisted": with_assisted,
                "player_key": win.player_key,
                **score._asdict(),
            }
            for board, starts_on in (("all", ALL_TIME), ("day", day), ("week", week))
            for with_assisted in listings
        ],
    )


_LOCK_TOTAL = (
    select(totals.c.last_finished_at)
    .where(totals.c.score == bindparam("of_score"))
    .with_for_update()
)
_COUNT_WIN = (
    update(totals)
    .where(totals.c.score == bindparam("of_score"))
    .values(
        wins=totals.c.wins + 1,
        wins_unassisted=totals.c.wins_unassisted + bindparam("plain"),
        last_finished_at=bindparam("at", type_=totals.c.last_finished_at.type),
    )
    .returning(totals.c.wins, totals.c.wins_unassisted)
)


Upsert = postgresql.Insert | sqlite.Insert


def _upsert(table: Table, dialect: str) -> Upsert:
    """``INSERT ... ON CONFLICT`` into ``table`` for the database at hand (SQLAlchemy has one
    per dialect)."""
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


@functools.cache
def _count_day_statement(dialect: str) -> ReturningInsert[tuple[int, int]]:
    statement = _upsert(days, dialect)
    return statement.on_conflict_do_update(
        index_elements=[days.c.week, days.c.day, days.c.score],
        set_={
            "wins": days.c.wins + statement.excluded.wins,
            "wins_unassisted": days.c.wins_unassisted + statement.excluded.wins_unassisted,
        },
    ).returning(days.c.wins, days.c.wins_unassisted)


@functools.cache
def _best_statement(dialect: str) -> Upsert:
    statement = _upsert(bests, dialect)
    kept = ("game_id", "player", "score", "sort_score", "finished_at", "assisted")
    return statement.on_conflict_do_update(
        index_elements=[
            bests.c.board,
            bests.c.starts_on,
            bests.c.with_assisted,
            bests.c.player_key,
        ],
        set_={name: statement.excluded[name] for name in kept},
        # Only a better score replaces: an equal one finished later.
        where=statement.excluded.sort_score < bests.c.sort_score,
    )


def _board_filter(table: Table, board: Listing) -> list[ColumnElement[bool]]:
    """The WHERE clause that picks ``board``'s games out of ``table``."""
    if table is bests:
        return [
            bests.c.board == bindparam("board"),
            bests.c.starts_on == bindparam("starts_on", type_=bests.c.starts_on.type),
            bests.c.with_assisted == bindparam("with_assisted"),
        ]
    where: list[ColumnElement[bool]] = []
    if board.period == "day":
        where.append(scores.c.day == bindparam("starts_on", type_=scores.c.day.type))
    elif board.period == "week":
        where.append(scores.c.week == bindparam("starts_on", type_=scores.c.week.type))
    if not board.with_assisted:
        where.append(scores.c.assisted == bindparam("assisted"))
    return where


def _board_parameters(board: Listing) -> dict[str, Any]:
    if board.per_player:
        return {
            "board": board.period,
            "starts_on": board.starts_on or ALL_TIME,
            "with_assisted": board.with_assisted,
        }
    parameters: dict[str, Any] = {}
    if board.starts_on is not None:
        parameters["starts_on"] = board.starts_on
    if not board.with_assisted:
        parameters["assisted"] = False
    return parameters


def _key(table: FromClause) -> Tuple:
    return tuple_(table.c.sort_score, table.c.finished_at, table.c.game_id)


def _key_parameter(table: Table) -> Tuple:
    return tuple_(
        bindparam("sort_score", type_=table.c.sort_score.type),
        bindparam("finished_at", type_=table.c.finished_at.type),
        bindparam("game_id", type_=table.c.game_id.type),
    )


@functools.cache
def _leaderboard_statement(
    board: Listing, after: bool, descending: bool = False
) -> Select[uuid.UUID, str, int, int, datetime, bool]:
    """One range scan of the board's index: ``ix_scores_leaderboard`` (or
    ``..._by_assistance`` for the default listing), ``ix_scores_day``, ``ix_scores_week`` or
    ``ix_leaderboard_bests_board``. Cached by the board's shape (its dates are parameters)."""
    table = bests if board.per_player else scores
    statement = select(*(table.c[name] for name in ScoreRecord._fields)).where(
        *_board_filter(table, board)
    )
    if after:
        key = _key(table)
        bound = _key_parameter(table)
        statement = statement.where(key < bound if descending else key > bound)
    columns = (table.c.sort_score, table.c.finished_at, table.c.game_id)
    order = [column.desc() for column in columns] if descending else list(columns)
    return statement.order_by(*order).limit(bindparam("limit"))


def _statement_shape(board: Listing) -> Listing:
    # The statement depends on whether the board has a date, not on which date.
    return board._replace(starts_on=date.min if board.starts_on is not None else None)


def leaderboard(
    session: Executor, board: Listing, after: LeaderboardKey | None, limit: int
) -> list[ScoreRecord]:
    """Won games of ``board`` in leaderboard order, after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"limit": limit, **_board_parameters(board)}
    if after is not None:
        parameters["sort_score"], parameters["finished_at"], parameters["game_id"] = after
    statement = _leaderboard_statement(_statement_shape(board), after is not None)
    return [ScoreRecord._make(row) for row in session.execute(statement, parameters)]


@functools.cache
def _size_statement(board: Listing) -> Select[int]:
    """How many entries a board of this shape has (its dates are parameters)."""
    if board.per_player:
        return select(func.count()).select_from(bests).where(*_board_filter(bests, board))
    if board.period == "all":
        wins = totals.c.wins if board.with_assisted else totals.c.wins_unassisted
        return select(func.coalesce(func.sum(wins), 0))
    wins = days.c.wins if board.with_assisted else days.c.wins_unassisted
    column = days.c.day if board.period == "day" else days.c.week
    return select(func.coalesce(func.sum(wins), 0)).where(
        column == bindparam("starts_on", type_=column.type)
    )


def board_size(session: Executor, board: Listing) -> int:
    """How many entries ``board`` has. A sum of the win counters (at most 25 rows for all
    time, 7 x 25 for a week), as the ranks are; for ``per_player=best`` a count of the board's
    range of ``leaderboard_bests``, which grows with its players. The board's parameters are
    the listing's; the counter sums leave ``assisted`` unused (the column chosen says it)."""
    statement = _size_statement(_statement_shape(board))
    return int(session.execute(statement, _board_parameters(board)).scalar_one())


class Standing(NamedTuple):
    """A won game's place on one board: its rank, the board's first day, the entries just
    above (nearest first) and just below it, and how many entries the board has."""

    rank: int
    starts_on: date | None
    entry: ScoreRecord
    above: list[ScoreRecord]
    below: list[ScoreRecord]
    size: int


def _rank_expression(period: str, with_assisted: bool, game: FromClause) -> ColumnElement[int]:
    """A won game's rank on the board of ``period`` that holds it, as a SQL expression over
    its ``scores`` row ``game``: the wins with a better score (and, on a week's board, those
    of its score on earlier days of the week) counted by ``leaderboard_totals`` or
    ``leaderboard_days``, plus its ordinal. A few counter rows, whatever the board's size."""
    if period == "all":
        wins = totals.c.wins if with_assisted else totals.c.wins_unassisted
        before = select(func.sum(wins)).where(totals.c.score > game.c.score)
        ordinal = game.c.ordinal if with_assisted else game.c.ordinal_unassisted
    else:
        wins = days.c.wins if with_assisted else days.c.wins_unassisted
        earlier = (
            days.c.score > game.c.score
            if period == "day"
            else or_(
                days.c.score > game.c.score,
                and_(days.c.score == game.c.score, days.c.day < game.c.day),
            )
        )
        before = select(func.sum(wins)).where(days.c.week == game.c.week, earlier)
        if period == "day":
            before = before.where(days.c.day == game.c.day)
        ordinal = game.c.day_ordinal if with_assisted else game.c.day_ordinal_unassisted
    return func.coalesce(before.scalar_subquery(), 0) + ordinal


@functools.cache
def _rank_statement(period: str, per_player: bool, with_assisted: bool) -> Select[*tuple[Any, ...]]:
    """The game's rank on its board of ``period``, its board's first day and its entry;
    no row if the game is not on that board."""
    if per_player:
        mine = bests.alias("mine")
        other = bests.alias("other")
        above = (
            select(func.count())
            .select_from(other)
            .where(
                other.c.board == mine.c.board,
                other.c.starts_on == mine.c.starts_on,
                other.c.with_assisted == mine.c.with_assisted,
                _key(other) < _key(mine),
            )
            .scalar_subquery()
        )
        return select(
            above + 1, mine.c.starts_on, *(mine.c[name] for name in ScoreRecord._fields)
        ).where(
            mine.c.game_id == bindparam("id"),
            mine.c.board == bindparam("board"),
            mine.c.with_assisted == bindparam("with_assisted"),
        )
    game = scores.alias("game")
    statement: Select[*tuple[Any, ...]] = select(
        _rank_expression(period, with_assisted, game),
        game.c.week if period == "week" else game.c.day,  # ignored for ``all``
        *(game.c[name] for name in ScoreRecord._fields),
    ).where(game.c.game_id == bindparam("id"))
    if not with_assisted:
        statement = statement.where(game.c.assisted == bindparam("assisted"))
    return statement


def rank_of(
    session: Executor, game_id: uuid.UUID, period: str, per_player: bool, with_assisted: bool
) -> tuple[int, date | None, ScoreRecord] | None:
    """A won game's rank on its board of ``period``, the board's first day and its entry;
    None if it is not on that board (not won, assisted on a board without hints, or not its
    player's best there)."""
    parameters: dict[str, Any] = {"id": game_id}
    if per_player:
        parameters |= {"board": period, "with_assisted": with_assisted}
    elif not with_assisted:
        parameters["assisted"] = False
    row = session.execute(_rank_statement(period, per_player, with_assisted), parameters).first()
    if row is None:
        return None
    starts_on = None if period == "all" else row[1]
    return int(row[0]), starts_on, ScoreRecord(*row[2:])


def standing(
    session: Executor,
    game_id: uuid.UUID,
    period: str,
    per_player: bool,
    with_assisted: bool,
    count: int,
) -> Standing | None:
    """A won game's rank on its board of ``period``, the ``count`` entries either side and
    the board's size.

    Several statements, each a consistent snapshot: the rank and entry, then the neighbours,
    read by key from that entry, then the size. A win recorded between them can appear among
    the neighbours with a rank one off, or be counted in the size; paging the board is
    exact."""
    found = rank_of(session, game_id, period, per_player, with_assisted)
    if found is None:
        return None
    rank, starts_on, entry = found
    board = Listing(period, starts_on, per_player, with_assisted)
    parameters = {
        "limit": count,
        "sort_score": entry.sort_score,
        "finished_at": entry.finished_at,
        "game_id": entry.game_id,
        **_board_parameters(board),
    }
    shape = _statement_shape(board)
    above = session.execute(_leaderboard_statement(shape, True, descending=True), parameters)
    below = session.execute(_leaderboard_statement(shape, True), parameters)
    return Standing(
        rank,
        starts_on,
        entry,
        [ScoreRecord._make(row) for row in above],
        [ScoreRecord._make(row) for row in below],
        board_size(session, board),
    )


class GameSummary(NamedTuple):
    """Why a game may be on no board: its status and whether it was assisted."""

    status: str
    assisted: bool


_SUMMARY = select(games.c.status, games.c.assisted).where(games.c.id == bindparam("id"))


def game_summary(session: Executor, game_id: uuid.UUID) -> GameSummary | None:
    row = session.execute(_SUMMARY, {"id": game_id}).first()
    return None if row is None else GameSummary(*row)


def leaderboard_revision(session: Executor) -> int:
    """A number the database bumps whenever ``scores`` changes (migration 0004's triggers)."""
    return int(session.execute(_REVISION).scalar_one())
