"""The SQL of the leaderboards: recording a win on every board, pages in board order, a
won game's rank and each board's size.

Ranks are counted, not numbered: ``leaderboard_totals`` (wins by score) and
``leaderboard_days`` (wins by day and score) are counters that :func:`record_win` bumps in
the transaction that ends a game, and each ``scores`` row keeps its ordinals (its place
among its score's wins when it was recorded). A rank is then a sum over at most 25 counter
rows plus an ordinal, whatever the board's size. :mod:`api.leaderboards.recount` checks
these figures against a recount and rebuilds them.

The statements are built once per shape of board (period, every game or each player's best,
with or without assisted games), which :func:`functools.cache` keys them by; a board's dates
and keys are parameters.
"""

from __future__ import annotations

import functools
import uuid
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    ColumnElement,
    FromClause,
    Integer,
    Select,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    literal,
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
from api.games import with_registered
from api.leaderboards.tables import leaderboard_bests as bests
from api.leaderboards.tables import leaderboard_days as days
from api.leaderboards.tables import leaderboard_held as held
from api.leaderboards.tables import leaderboard_revision as revision
from api.leaderboards.tables import leaderboard_totals as totals
from api.leaderboards.tables import scores


class ScoreRecord(NamedTuple):
    """One row of ``scores``: a won game on the leaderboard."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool


class BoardEntry(NamedTuple):
    """A won game as a board lists it: its ``scores`` row's fields, and whether an account
    played it (``games.player_id``): a guest's name has no player page to link to."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool
    registered: bool


LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)

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
    return cast(datetime | None, row.last_finished_at)


def record_win(session: Session, score: ScoreRecord, player_key: str) -> None:
    """Put a won game on every board in the transaction that ends it: count it (its
    ordinals are the counts after it), store its ``scores`` row, and make it its player's
    best where it beats what they had. ``player_key`` is the player's name as look-alikes
    compare (:func:`api.core.names.name_skeleton`). The caller holds
    :func:`last_win_of_score`'s lock and stamped ``finished_at`` after that function's answer."""
    connection = session.connection()
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
            "player_key": player_key,
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
                "player_key": player_key,
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
        index_elements=list(days.primary_key),  # a score's row on each day
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
        index_elements=list(bests.primary_key),  # a player's row on each board
        set_={name: statement.excluded[name] for name in kept},
        # Only a better score replaces: an equal one finished later.
        where=statement.excluded.sort_score < bests.c.sort_score,
    )


def _board_filter(period: str, per_player: bool, with_assisted: bool) -> list[ColumnElement[bool]]:
    """The WHERE clause that picks a board's games out of ``leaderboard_bests`` (each
    player's best) or ``scores``; the board's first day is the parameter ``starts_on``."""
    if per_player:
        return [
            bests.c.board == period,
            bests.c.starts_on == bindparam("starts_on", type_=bests.c.starts_on.type),
            bests.c.with_assisted == with_assisted,
        ]
    where: list[ColumnElement[bool]] = []
    if period != "all":
        column = scores.c.day if period == "day" else scores.c.week
        where.append(column == bindparam("starts_on", type_=column.type))
    if not with_assisted:
        # A bound False, not SQL's literal: SQLite runs the page a few percent cheaper so.
        where.append(scores.c.assisted == bindparam("assisted", False))
    return where


def _key(table: FromClause) -> Tuple:
    return tuple_(table.c.sort_score, table.c.finished_at, table.c.game_id)


@functools.cache
def _leaderboard_statement(
    period: str, per_player: bool, with_assisted: bool, after: bool, descending: bool
) -> Select[uuid.UUID, str, int, int, datetime, bool, bool]:
    """One range scan of the board's index: ``ix_scores_leaderboard`` (or
    ``..._by_assistance`` for the default listing), ``ix_scores_day``, ``ix_scores_week`` or
    ``ix_leaderboard_bests_board``; each entry's game is then read by its key, for
    ``registered``."""
    table = bests if per_player else scores
    statement = _with_entry(select(), table).where(
        *_board_filter(period, per_player, with_assisted)
    )
    columns = (table.c.sort_score, table.c.finished_at, table.c.game_id)
    if after:
        bound = tuple_(*(bindparam(column.name, type_=column.type) for column in columns))
        statement = statement.where(_key(table) < bound if descending else _key(table) > bound)
    order = [column.desc() for column in columns] if descending else list(columns)
    return statement.order_by(*order).limit(bindparam("limit"))


def leaderboard(
    session: Executor,
    board: Listing,
    after: LeaderboardKey | None,
    limit: int,
    descending: bool = False,
) -> list[BoardEntry]:
    """Won games of ``board`` in leaderboard order (or, ``descending``, the reverse), after
    the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"limit": limit, "starts_on": board.starts_on or ALL_TIME}
    if after is not None:
        parameters["sort_score"], parameters["finished_at"], parameters["game_id"] = after
    statement = _leaderboard_statement(
        board.period, board.per_player, board.with_assisted, after is not None, descending
    )
    return [BoardEntry._make(row) for row in session.execute(statement, parameters)]


@functools.cache
def _size_statement(period: str, per_player: bool, with_assisted: bool) -> Select[int]:
    if per_player:
        where = _board_filter(period, per_player, with_assisted)
        return select(func.count()).select_from(bests).where(*where)
    if period == "all":
        wins = totals.c.wins if with_assisted else totals.c.wins_unassisted
        return select(func.coalesce(func.sum(wins), 0))
    wins = days.c.wins if with_assisted else days.c.wins_unassisted
    column = days.c.day if period == "day" else days.c.week
    return select(func.coalesce(func.sum(wins), 0)).where(
        column == bindparam("starts_on", type_=column.type)
    )


def board_size(session: Executor, board: Listing) -> int:
    """How many entries ``board`` has. A sum of the win counters (at most 25 rows for all
    time, 7 x 25 for a week), as the ranks are; for ``per_player=best`` a count of the board's
    range of ``leaderboard_bests``, which grows with its players."""
    statement = _size_statement(board.period, board.per_player, board.with_assisted)
    starts_on = board.starts_on or ALL_TIME  # the all-time boards of players' bests
    return int(session.execute(statement, {"starts_on": starts_on}).scalar_one())


def _held_count(period: str) -> ColumnElement[int]:
    """How many wins of a board's window the fair-play review holds off it."""
    statement = select(func.count()).select_from(held)
    if period != "all":
        column = held.c.day if period == "day" else held.c.week
        statement = statement.where(column == bindparam("starts_on", type_=column.type))
    return statement.scalar_subquery()


@functools.cache
def _left_out_statement(period: str, per_player: bool, with_assisted: bool) -> Select[int, int]:
    """What a board leaves out, in one statement: the entries with hints (null when they are
    on it) and the wins the fair-play review holds."""
    held_wins = _held_count(period)
    if with_assisted:
        return select(literal(None, type_=Integer), held_wins)
    if per_player:
        size = {w: _size_statement(period, True, w).scalar_subquery() for w in (True, False)}
        return select(size[True] - size[False], held_wins)
    table = totals if period == "all" else days
    left_out = func.coalesce(func.sum(table.c.wins - table.c.wins_unassisted), 0)
    if period == "all":
        return select(left_out, held_wins)
    column = days.c.day if period == "day" else days.c.week
    return select(left_out, held_wins).where(column == bindparam("starts_on", type_=column.type))


def left_out(session: Executor, board: Listing) -> tuple[int | None, int]:
    """How many more entries ``board`` has with the games whose player asked for hints than
    without them (None when they are on it: one statement, over the win counters as
    :func:`board_size`), and how many wins of its window the fair-play review holds."""
    statement = _left_out_statement(board.period, board.per_player, board.with_assisted)
    assisted, held_wins = session.execute(
        statement, {"starts_on": board.starts_on or ALL_TIME}
    ).one()
    return (None if assisted is None else int(assisted)), int(held_wins)


@functools.cache
def _rank_statement(
    period: str, per_player: bool, with_assisted: bool, entry: bool
) -> Select[*tuple[Any, ...]]:
    """The game's rank on its board of ``period``, its board's first day and (``entry``)
    its entry, which reads its game too; no row if the game is not on that board.

    On a board of every game, the rank is the wins with a better score (and, on a week's
    board, those of its score on earlier days of the week) counted by ``leaderboard_totals``
    or ``leaderboard_days``, plus the game's ordinal: a few counter rows, whatever the
    board's size. On a board of each player's best, a count of the bests above it."""
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
        mine_rank = select(above + 1, mine.c.starts_on).where(
            mine.c.game_id == bindparam("id"),
            mine.c.board == period,
            mine.c.with_assisted == with_assisted,
        )
        return _with_entry(mine_rank, mine) if entry else mine_rank
    game = scores.alias("game")
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
    statement: Select[*tuple[Any, ...]] = select(
        func.coalesce(before.scalar_subquery(), 0) + ordinal,
        game.c.week if period == "week" else game.c.day,  # ignored for ``all``
    ).where(game.c.game_id == bindparam("id"))
    if not with_assisted:
        # Bound, as in _board_filter: the rank reads cheaper so.
        statement = statement.where(game.c.assisted == bindparam("assisted", False))
    return _with_entry(statement, game) if entry else statement


def _with_entry(statement: Select[*tuple[Any, ...]], table: FromClause) -> Select[*tuple[Any, ...]]:
    """``statement`` with a :class:`BoardEntry`'s columns added: ``table``'s (``scores`` or
    ``leaderboard_bests``), joined to its games for ``registered`` (the games face's
    :func:`api.games.with_registered`)."""
    joined, registered = with_registered(table)
    return statement.add_columns(
        *(table.c[name] for name in ScoreRecord._fields), registered
    ).select_from(joined)


def rank_of(
    session: Executor, game_id: uuid.UUID, period: str, per_player: bool, with_assisted: bool
) -> int | None:
    """A won game's rank on its board of ``period``; None if it is not on that board (not
    won, assisted on a board without hints, or not its player's best there)."""
    statement = _rank_statement(period, per_player, with_assisted, entry=False)
    rank = session.execute(statement, {"id": game_id}).scalar()
    return None if rank is None else int(rank)


def entry_of(
    session: Executor, game_id: uuid.UUID, period: str, per_player: bool, with_assisted: bool
) -> tuple[int, date | None, BoardEntry] | None:
    """As :func:`rank_of`, with the board's first day and the game's entry."""
    statement = _rank_statement(period, per_player, with_assisted, entry=True)
    row = session.execute(statement, {"id": game_id}).first()
    if row is None:
        return None
    starts_on = None if period == "all" else row[1]
    return int(row[0]), starts_on, BoardEntry(*row[2:])


def leaderboard_revision(session: Executor) -> int:
    """A number the database bumps whenever ``scores`` changes (migration 0004's triggers)."""
    return int(session.execute(_REVISION).scalar_one())


# ---------------------------------------------------------------- wins held by the review


def _bump_revision(session: Session) -> None:
    """A cached page names the held wins in its caption: the revision says it changed (the
    triggers of migration 0004 bump it only for ``scores``)."""
    session.execute(update(revision).values(revision=revision.c.revision + 1))


def hold(session: Session, game_id: uuid.UUID, finished_at: datetime) -> None:
    """Count a win as held off the boards (its caption says so) until :func:`release`."""
    day = finished_at.astimezone(UTC).date()
    connection = session.connection()
    connection.execute(
        _upsert(held, connection.dialect.name)
        .values(game_id=game_id, day=day, week=week_of(day))
        .on_conflict_do_nothing(index_elements=["game_id"])
    )
    _bump_revision(session)


def release(session: Session, game_ids: list[uuid.UUID]) -> None:
    """The wins are no longer held (they go on the boards, or they were never to)."""
    if game_ids:
        session.execute(delete(held).where(held.c.game_id.in_(game_ids)))
        _bump_revision(session)


def remove_scores(session: Session, game_ids: list[uuid.UUID]) -> int:
    """Delete the games' ``scores`` rows (the caller rebuilds the counters after it)."""
    if not game_ids:
        return 0
    result = session.execute(delete(scores).where(scores.c.game_id.in_(game_ids)))
    return int(result.rowcount)  # type: ignore[attr-defined]


def insert_scores(session: Session, rows: list[tuple[ScoreRecord, str]]) -> None:
    """Insert ``scores`` rows as they were, before a rebuild numbers them (their ordinals
    are placeholders here); ``rows`` pairs each with its player key."""
    for score, player_key in rows:
        day = score.finished_at.astimezone(UTC).date()
        session.execute(
            _INSERT_SCORE.values(
                **score._asdict(),
                player_key=player_key,
                day=day,
                week=week_of(day),
                ordinal=0,
                ordinal_unassisted=None if score.assisted else 0,
                day_ordinal=0,
                day_ordinal_unassisted=None if score.assisted else 0,
            )
        )


_SCORE_OF = select(*(scores.c[name] for name in ScoreRecord._fields)).where(
    scores.c.game_id == bindparam("id")
)


def win(session: Executor, game_id: uuid.UUID) -> ScoreRecord | None:
    """A won game as the boards hold it, if they do (the live events' news of a win)."""
    row = session.execute(_SCORE_OF, {"id": game_id}).first()
    return None if row is None else ScoreRecord._make(row)


_WINS_SINCE = (
    select(scores.c.game_id)
    .where(
        # The days' index (ix_scores_day) first: one or two days' wins, not the whole board.
        scores.c.day.in_(bindparam("days", expanding=True)),
        scores.c.finished_at > bindparam("since", type_=scores.c.finished_at.type),
    )
    .order_by(scores.c.finished_at)
    .limit(bindparam("limit"))
)


def wins_since(session: Executor, since: datetime, limit: int) -> list[uuid.UUID]:
    """The games won after ``since`` (UTC), first finished first, at most ``limit``."""
    days = sorted({since.astimezone(UTC).date(), datetime.now(UTC).date()})
    rows = session.execute(_WINS_SINCE, {"days": days, "since": since, "limit": limit})
    return [row[0] for row in rows]
