"""All the service's SQL, and the records it returns.

Functions here take a session and never commit: the caller's transaction
(:meth:`api.store.database.Database.read` or ``write``) does. Reads and writes use the same
tables and the same column types, so a value read back is converted exactly as it was
written (UUIDs, UTC timestamps, JSON). Statements are SQLAlchemy Core on the ORM models'
tables: the requests read and write a few columns at a time, not whole objects.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import Any, NamedTuple, cast

from sqlalchemy import (
    Connection,
    Insert,
    Table,
    Update,
    and_,
    bindparam,
    case,
    delete,
    func,
    insert,
    literal,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.store.models import (
    AnalysisRow,
    GameRow,
    IdempotencyKeyRow,
    LeaderboardBestRow,
    LeaderboardDayRow,
    LeaderboardRevisionRow,
    LeaderboardTotalRow,
    PlacementRow,
    PlayerRow,
    PlayerStatsRow,
    ScoreRow,
    ServiceSecretRow,
)


class GameRecord(NamedTuple):
    """The columns of a game that requests use."""

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
    public_format: str | None  # the format public_json was rendered in
    player_id: uuid.UUID | None  # the account that plays it; None for a guest
    # Read with the game (not a column of games): the key hash of that account, so that its
    # key authorises the game's requests without another round trip.
    player_key_hash: str | None
    # The UTC day whose daily challenge this is (api.games.challenges); None otherwise.
    challenge_date: date | None = None


class PublicView(NamedTuple):
    """What ``GET /games/{id}`` needs of a game: its version and its stored view."""

    version: int
    status: str
    public_format: str | None
    public_json: str | None
    challenge_date: date | None  # a challenge game's view depends on whether its day closed
    assisted: bool  # which listing a won game's rank is on


class GameSummary(NamedTuple):
    """Whether a game is on the boards at all: its status and whether it was assisted."""

    status: str
    assisted: bool


class PlacementRecord(NamedTuple):
    """One row of ``placements`` (without its game id)."""

    number: int
    row: int
    col: int
    card: str
    flipped: list[dict[str, Any]]
    status_after: str
    created_at: datetime


class PlayerRecord(NamedTuple):
    """One row of ``players``."""

    id: uuid.UUID
    name: str
    name_key: str
    key_hash: str
    created_at: datetime


class PlayerStatsRecord(NamedTuple):
    """One row of ``player_stats`` (without its player id)."""

    games_played: int
    games_won: int
    games_lost: int
    won_score_total: int
    best_score: int | None
    current_streak: int
    longest_streak: int
    last_played_at: datetime | None


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


PlayerGamesKey = tuple[datetime, uuid.UUID]  # (created_at, id), newest first


class ScoreRecord(NamedTuple):
    """One row of ``scores``: a won game on the leaderboard."""

    game_id: uuid.UUID
    player: str
    score: int
    sort_score: int
    finished_at: datetime
    assisted: bool


class IdempotencyRecord(NamedTuple):
    """A claimed ``Idempotency-Key`` and, once its request is done, the response."""

    claim: str
    fingerprint: str
    status_code: int | None
    response_body: str | None
    response_headers: dict[str, str] | None
    created_at: datetime


LeaderboardKey = tuple[int, datetime, uuid.UUID]  # (sort_score, finished_at, game_id)
# What a read runs on: a read connection, or the session of the transaction it is part of.
Executor = Session | Connection

_games = cast(Table, GameRow.__table__)
_placements = cast(Table, PlacementRow.__table__)
_scores = cast(Table, ScoreRow.__table__)
_keys = cast(Table, IdempotencyKeyRow.__table__)
_revision = cast(Table, LeaderboardRevisionRow.__table__)
_secrets = cast(Table, ServiceSecretRow.__table__)
_players = cast(Table, PlayerRow.__table__)
_stats = cast(Table, PlayerStatsRow.__table__)

# Statements with parameters are built once: SQLAlchemy then finds their compiled form in its
# cache without walking a new statement (and its values) on every request.
_PLAYER_KEY_HASH = (
    select(_players.c.key_hash)
    .where(_players.c.id == _games.c.player_id)
    .scalar_subquery()
    .label("player_key_hash")
)
_GAME_COLUMNS = tuple(
    _PLAYER_KEY_HASH if name == "player_key_hash" else _games.c[name] for name in GameRecord._fields
)
_GAME = select(*_GAME_COLUMNS).where(_games.c.id == bindparam("id"))
_PUBLIC_VIEW = select(*(_games.c[name] for name in PublicView._fields)).where(
    _games.c.id == bindparam("id")
)
_VERSION = select(_games.c.version).where(_games.c.id == bindparam("id"))
# A history in one statement: no row at all if the game does not exist, one row of NULLs if
# it has no placements yet.
_HISTORY = (
    select(*(_placements.c[name] for name in PlacementRecord._fields))
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
_REVISION = select(_revision.c.revision).where(_revision.c.id == 1)
_INSERT_GAME = insert(_games)
_INSERT_PLACEMENT = insert(_placements)
_INSERT_SCORE = insert(_scores)


def get_game(session: Executor, game_id: uuid.UUID) -> GameRecord | None:
    row = session.execute(_GAME, {"id": game_id}).first()
    return None if row is None else GameRecord._make(row)


def get_public_view(session: Executor, game_id: uuid.UUID) -> PublicView | None:
    row = session.execute(_PUBLIC_VIEW, {"id": game_id}).first()
    return None if row is None else PublicView(*row)


def game_summary(session: Executor, game_id: uuid.UUID) -> GameSummary | None:
    row = session.execute(
        select(_games.c.status, _games.c.assisted).where(_games.c.id == game_id)
    ).first()
    return None if row is None else GameSummary(*row)


def get_game_version(session: Executor, game_id: uuid.UUID) -> int | None:
    version: int | None = session.execute(_VERSION, {"id": game_id}).scalar()
    return version


def get_history(session: Executor, game_id: uuid.UUID) -> list[PlacementRecord] | None:
    """The game's placements in order, or None if there is no such game."""
    found = get_history_and_challenge_date(session, game_id)
    return None if found is None else found[0]


# The same, with the game's challenge day (whether its history is private), in one statement.
_HISTORY_AND_DAY = _HISTORY.add_columns(_games.c.challenge_date)


def get_history_and_challenge_date(
    session: Executor, game_id: uuid.UUID
) -> tuple[list[PlacementRecord], date | None] | None:
    """The game's placements in order and its challenge day (None for an ordinary game), or
    None if there is no such game."""
    rows = session.execute(_HISTORY_AND_DAY, {"id": game_id}).all()
    if not rows:
        return None
    history = [PlacementRecord(*row[:-1]) for row in rows if row[0] is not None]
    return history, rows[0][-1]


def games_untouched_since(session: Executor, cutoff: datetime, limit: int) -> list[GameRecord]:
    """Up to ``limit`` games in progress last changed before ``cutoff``, oldest first."""
    rows = session.execute(_UNTOUCHED, {"cutoff": cutoff, "limit": limit})
    return [GameRecord._make(row) for row in rows]


@functools.cache
def _update_game_statement(columns: tuple[str, ...], bump: bool) -> Update:
    values: dict[str, Any] = {column: bindparam(f"new_{column}") for column in columns}
    if bump:
        values["version"] = bindparam("new_version")
    return (
        update(_games)
        .where(_games.c.id == bindparam("key_id"), _games.c.version == bindparam("key_version"))
        .values(**values)
    )


def _update_game_parameters(
    game_id: uuid.UUID, version: int, values: dict[str, Any]
) -> tuple[tuple[str, ...], dict[str, Any]]:
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
    result = session.connection().execute(_update_game_statement(columns, True), parameters)
    return result.rowcount == 1


def store_public_view(
    session: Session, game_id: uuid.UUID, version: int, public_format: str, public_json: str
) -> bool:
    """Replace a game's stored view with one rendered anew, if the game is still at
    ``version`` (the view is derived data: the version does not change)."""
    values = {"public_format": public_format, "public_json": public_json}
    columns, parameters = _update_game_parameters(game_id, version, values)
    result = session.connection().execute(_update_game_statement(columns, False), parameters)
    return result.rowcount == 1


@functools.cache
def _move_statement(columns: tuple[str, ...]) -> Insert:
    """PostgreSQL: the guarded UPDATE of a game and the INSERT of its placement as one
    statement; the placement is inserted (and returned) only if the update matched."""
    moved = _update_game_statement(columns, True).returning(_games.c.id).cte("moved")
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


# ---------------------------------------------------------------- leaderboard

ALL_TIME = date(2000, 1, 1)  # ``leaderboard_bests.starts_on`` of the all-time boards
PERIODS = ("all", "day", "week")


class Board(NamedTuple):
    """One listing of won games: a period (``all``, ``day``, ``week``) and the first day of
    the day or week (None for ``all``), every game or each player's best (``per_player``),
    with or without the games whose player asked for hints."""

    period: str
    starts_on: date | None
    per_player: bool
    with_assisted: bool


class Win(NamedTuple):
    """What recording a won game needs beyond its ``scores`` row's public columns."""

    score: ScoreRecord
    player_key: str  # api.games.players.name_key of the player's name


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


def record_win(session: Session, win: Win) -> None:
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


_totals = cast(Table, LeaderboardTotalRow.__table__)
_days = cast(Table, LeaderboardDayRow.__table__)
_bests = cast(Table, LeaderboardBestRow.__table__)
_LOCK_TOTAL = (
    select(_totals.c.last_finished_at)
    .where(_totals.c.score == bindparam("of_score"))
    .with_for_update()
)
_COUNT_WIN = (
    update(_totals)
    .where(_totals.c.score == bindparam("of_score"))
    .values(
        wins=_totals.c.wins + 1,
        wins_unassisted=_totals.c.wins_unassisted + bindparam("plain"),
        last_finished_at=bindparam("at", type_=_totals.c.last_finished_at.type),
    )
    .returning(_totals.c.wins, _totals.c.wins_unassisted)
)


def _upsert(dialect: str) -> Any:
    """``INSERT ... ON CONFLICT`` of the database at hand (SQLAlchemy has one per dialect)."""
    return postgresql.insert if dialect == "postgresql" else sqlite.insert


@functools.cache
def _count_day_statement(dialect: str) -> Any:
    statement = _upsert(dialect)(_days)
    return statement.on_conflict_do_update(
        index_elements=[_days.c.week, _days.c.day, _days.c.score],
        set_={
            "wins": _days.c.wins + statement.excluded.wins,
            "wins_unassisted": _days.c.wins_unassisted + statement.excluded.wins_unassisted,
        },
    ).returning(_days.c.wins, _days.c.wins_unassisted)


@functools.cache
def _best_statement(dialect: str) -> Any:
    statement = _upsert(dialect)(_bests)
    kept = ("game_id", "player", "score", "sort_score", "finished_at", "assisted")
    return statement.on_conflict_do_update(
        index_elements=[
            _bests.c.board,
            _bests.c.starts_on,
            _bests.c.with_assisted,
            _bests.c.player_key,
        ],
        set_={name: statement.excluded[name] for name in kept},
        # Only a better score replaces: an equal one finished later.
        where=statement.excluded.sort_score < _bests.c.sort_score,
    )


def _board_filter(table: Table, board: Board) -> list[Any]:
    """The WHERE clause that picks ``board``'s games out of ``table``."""
    if table is _bests:
        return [
            _bests.c.board == bindparam("board"),
            _bests.c.starts_on == bindparam("starts_on", type_=_bests.c.starts_on.type),
            _bests.c.with_assisted == bindparam("with_assisted"),
        ]
    where: list[Any] = []
    if board.period == "day":
        where.append(_scores.c.day == bindparam("starts_on", type_=_scores.c.day.type))
    elif board.period == "week":
        where.append(_scores.c.week == bindparam("starts_on", type_=_scores.c.week.type))
    if not board.with_assisted:
        where.append(_scores.c.assisted == bindparam("assisted"))
    return where


def _board_parameters(board: Board) -> dict[str, Any]:
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


def _key(table: Any) -> Any:
    return tuple_(table.c.sort_score, table.c.finished_at, table.c.game_id)


def _key_parameter(table: Table) -> Any:
    return tuple_(
        bindparam("sort_score", type_=table.c.sort_score.type),
        bindparam("finished_at", type_=table.c.finished_at.type),
        bindparam("game_id", type_=table.c.game_id.type),
    )


@functools.cache
def _leaderboard_statement(board: Board, after: bool, descending: bool = False) -> Any:
    """One range scan of the board's index: ``ix_scores_leaderboard`` (or
    ``..._by_assistance`` for the default listing), ``ix_scores_day``, ``ix_scores_week`` or
    ``ix_leaderboard_bests_board``. Cached by the board's shape (its dates are parameters)."""
    table = _bests if board.per_player else _scores
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


def _shape(board: Board) -> Board:
    # The statement depends on whether the board has a date, not on which date.
    return board._replace(starts_on=date.min if board.starts_on is not None else None)


def leaderboard(
    session: Executor, board: Board, after: LeaderboardKey | None, limit: int
) -> list[ScoreRecord]:
    """Won games of ``board`` in leaderboard order, after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"limit": limit, **_board_parameters(board)}
    if after is not None:
        parameters["sort_score"], parameters["finished_at"], parameters["game_id"] = after
    statement = _leaderboard_statement(_shape(board), after is not None)
    return [ScoreRecord(*row) for row in session.execute(statement, parameters)]


@functools.cache
def _size_statement(board: Board) -> Any:
    """How many entries a board of this shape has (its dates are parameters)."""
    if board.per_player:
        return select(func.count()).select_from(_bests).where(*_board_filter(_bests, board))
    if board.period == "all":
        wins = _totals.c.wins if board.with_assisted else _totals.c.wins_unassisted
        return select(func.coalesce(func.sum(wins), 0))
    wins = _days.c.wins if board.with_assisted else _days.c.wins_unassisted
    column = _days.c.day if board.period == "day" else _days.c.week
    return select(func.coalesce(func.sum(wins), 0)).where(
        column == bindparam("starts_on", type_=column.type)
    )


def board_size(session: Executor, board: Board) -> int:
    """How many entries ``board`` has. A sum of the win counters (at most 25 rows for all
    time, 7 x 25 for a week), as the ranks are; for ``per_player=best`` a count of the board's
    range of ``leaderboard_bests``, which grows with its players. The board's parameters are
    the listing's; the counter sums leave ``assisted`` unused (the column chosen says it)."""
    statement = _size_statement(_shape(board))
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


def _rank_expression(period: str, with_assisted: bool, game: Any) -> Any:
    """A won game's rank on the board of ``period`` that holds it, as a SQL expression over
    its ``scores`` row ``game``: the wins with a better score (and, on a week's board, those
    of its score on earlier days of the week) counted by ``leaderboard_totals`` or
    ``leaderboard_days``, plus its ordinal. A few counter rows, whatever the board's size."""
    if period == "all":
        wins = _totals.c.wins if with_assisted else _totals.c.wins_unassisted
        before = select(func.sum(wins)).where(_totals.c.score > game.c.score)
        ordinal = game.c.ordinal if with_assisted else game.c.ordinal_unassisted
    else:
        wins = _days.c.wins if with_assisted else _days.c.wins_unassisted
        earlier = (
            _days.c.score > game.c.score
            if period == "day"
            else or_(
                _days.c.score > game.c.score,
                and_(_days.c.score == game.c.score, _days.c.day < game.c.day),
            )
        )
        before = select(func.sum(wins)).where(_days.c.week == game.c.week, earlier)
        if period == "day":
            before = before.where(_days.c.day == game.c.day)
        ordinal = game.c.day_ordinal if with_assisted else game.c.day_ordinal_unassisted
    return func.coalesce(before.scalar_subquery(), 0) + ordinal


@functools.cache
def _rank_statement(period: str, per_player: bool, with_assisted: bool) -> Any:
    """The game's rank on its board of ``period``, its board's first day and its entry;
    no row if the game is not on that board."""
    if per_player:
        mine = _bests.alias("mine")
        other = _bests.alias("other")
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
    game = _scores.alias("game")
    statement = select(
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
    board = Board(period, starts_on, per_player, with_assisted)
    parameters = {
        "limit": count,
        "sort_score": entry.sort_score,
        "finished_at": entry.finished_at,
        "game_id": entry.game_id,
        **_board_parameters(board),
    }
    shape = _shape(board)
    above = session.execute(_leaderboard_statement(shape, True, descending=True), parameters)
    below = session.execute(_leaderboard_statement(shape, True), parameters)
    return Standing(
        rank,
        starts_on,
        entry,
        [ScoreRecord(*row) for row in above],
        [ScoreRecord(*row) for row in below],
        board_size(session, board),
    )


class Drift(NamedTuple):
    """A stored leaderboard figure that differs from a recount of the ``scores`` rows."""

    table: str  # where it is stored
    key: str  # which row
    stored: str
    counted: str


# Recounts of the won games, by score and by day and score, with how many had no hints.
_UNASSISTED_WINS = func.sum(case((_scores.c.assisted.is_(False), 1), else_=0)).label("plain")
_COUNTED_TOTALS = select(
    _scores.c.score,
    func.count().label("wins"),
    _UNASSISTED_WINS,
    func.max(_scores.c.finished_at).label("last"),
).group_by(_scores.c.score)
_BY_DAY = (_scores.c.week, _scores.c.day, _scores.c.score)
_COUNTED_DAYS = select(*_BY_DAY, func.count().label("wins"), _UNASSISTED_WINS).group_by(*_BY_DAY)


def leaderboard_drift(session: Executor) -> list[Drift]:
    """Every counter, ordinal and player's best that differs from a recount of ``scores``.

    Ranks and board sizes are sums of these (:class:`LeaderboardTotalRow`): they are right
    only while each win was counted once, in finish order, by :func:`record_win`. A row
    deleted or edited by hand, or restored from an older backup than its counters, shows here.
    Run it in one snapshot (the caller's transaction), or concurrent wins look like drift.
    """
    counted = session.execute(_COUNTED_TOTALS).all()
    stored = session.execute(select(_totals)).all()
    drift = _counts_drift(
        "leaderboard_totals",
        {(row.score,): (row.wins, row.wins_unassisted) for row in stored},
        {(row.score,): (row.wins, row.plain) for row in counted},
        lambda score: f"score {score}",
    )
    # A later stamp is harmless; an earlier one would let a new win rank before an old.
    last_win = {row.score: row.last for row in counted}
    drift.extend(
        Drift(
            "leaderboard_totals",
            f"score {row.score} last_finished_at",
            str(row.last_finished_at),
            f"not before {last_win[row.score]}",
        )
        for row in stored
        if row.score in last_win
        and (row.last_finished_at is None or row.last_finished_at < last_win[row.score])
    )

    drift += _counts_drift(
        "leaderboard_days",
        {
            (row.week, row.day, row.score): (row.wins, row.wins_unassisted)
            for row in session.execute(select(_days))
        },
        {
            (row.week, row.day, row.score): (row.wins, row.plain)
            for row in session.execute(_COUNTED_DAYS)
        },
        lambda week, day, score: f"{day} (week {week}) score {score}",
    )
    drift.extend(_ordinal_drift(session))
    drift.extend(_best_drift(session))
    return drift


def _counts_drift(
    table: str,
    stored: dict[tuple[Any, ...], tuple[int, int]],
    counted: dict[tuple[Any, ...], tuple[int, int]],
    label: Callable[..., str],
) -> list[Drift]:
    """The rows of a counter ``table`` whose (wins, wins without hints) differ from
    ``counted``, both by the table's key; a missing row stands for no wins, as
    :func:`record_win`'s upserts treat it. ``label`` names a row from its key."""
    drift = []
    for key in sorted(stored.keys() | counted.keys()):
        had, has = stored.get(key), counted.get(key, (0, 0))
        if (had or (0, 0)) != has:
            drift.append(
                Drift(
                    table,
                    label(*key),
                    "no row" if had is None else f"{had[0]} won ({had[1]} without hints)",
                    f"{has[0]} won ({has[1]} without hints)",
                )
            )
    return drift


def _numbered_scores() -> tuple[Any, dict[str, Any], Any]:
    """``scores`` numbered in finish order; each ordinal column's right value over it (its
    place among its score's games, among those without hints or NULL for an assisted game,
    and the same two within its day); and whether any stored ordinal differs from it."""
    order = (_scores.c.finished_at, _scores.c.game_id)
    c = _scores.c
    numbered = select(
        c.game_id,
        c.assisted,
        c.ordinal,
        c.ordinal_unassisted,
        c.day_ordinal,
        c.day_ordinal_unassisted,
        func.row_number().over(partition_by=c.score, order_by=order).label("n"),
        func.row_number().over(partition_by=(c.score, c.assisted), order_by=order).label("n_p"),
        func.row_number().over(partition_by=(c.day, c.score), order_by=order).label("n_d"),
        func.row_number()
        .over(partition_by=(c.day, c.score, c.assisted), order_by=order)
        .label("n_dp"),
    ).subquery()
    n = numbered.c
    unassisted = n.assisted.is_(False)
    right = {
        "ordinal": n.n,
        "ordinal_unassisted": case((unassisted, n.n_p), else_=None),
        "day_ordinal": n.n_d,
        "day_ordinal_unassisted": case((unassisted, n.n_dp), else_=None),
    }
    wrong = or_(*(n[name].is_distinct_from(value) for name, value in right.items()))
    return numbered, right, wrong


def _ordinal_drift(session: Executor) -> list[Drift]:
    """``scores`` rows whose ordinals are not their places in finish order (row_number)."""
    numbered, right, wrong = _numbered_scores()
    n = numbered.c
    # The game, its four stored ordinals, then the same four as they should be.
    statement = select(n.game_id, *(n[name] for name in right), *right.values())
    rows = session.execute(statement.where(wrong).order_by(n.game_id)).all()
    return [
        Drift("scores", f"game {row[0]}", _ordinals(row[1:5]), _ordinals(row[5:])) for row in rows
    ]


def _ordinals(values: Sequence[Any]) -> str:
    ordinal, unassisted, day, day_unassisted = values
    return f"ordinals {ordinal}/{unassisted}, day {day}/{day_unassisted}"


def _best_drift(session: Executor) -> list[Drift]:
    """``leaderboard_bests`` rows that are not each player's first game in board order, and
    players' boards that have no row."""
    expected: dict[tuple[str, date, bool, str], uuid.UUID] = {}
    for listing in _best_listings():
        for row in session.execute(listing):
            key = (row.board, row.starts_on, row.with_assisted, row.player_key)
            expected[key] = row.game_id
    drift: list[Drift] = []
    for row in session.execute(select(_bests)):
        key = (row.board, row.starts_on, row.with_assisted, row.player_key)
        game_id = expected.pop(key, None)
        if game_id != row.game_id:
            drift.append(_best(key, str(row.game_id), str(game_id) if game_id else "no row"))
    drift.extend(_best(key, "no row", str(game_id)) for key, game_id in expected.items())
    return drift


def _best_listings() -> list[Any]:
    """For each of the six listings of players' bests (all time, day, week; with assisted
    games or not), a SELECT of each player's first game in board order, in the columns of
    ``leaderboard_bests``."""
    c = _scores.c
    listings = []
    for board, starts_on in (("all", literal(ALL_TIME)), ("day", c.day), ("week", c.week)):
        for with_assisted in (True, False):
            partition = (c.player_key,) if board == "all" else (c.player_key, starts_on)
            ranked = select(
                literal(board).label("board"),
                starts_on.label("starts_on"),
                literal(with_assisted).label("with_assisted"),
                *(c[name] for name in _BEST_COPIED),
                func.row_number()
                .over(partition_by=partition, order_by=(c.sort_score, c.finished_at, c.game_id))
                .label("n"),
            )
            if not with_assisted:
                ranked = ranked.where(c.assisted.is_(False))
            sub = ranked.subquery()
            listings.append(select(*(sub.c[name] for name in _BEST_COLUMNS)).where(sub.c.n == 1))
    return listings


_BEST_COPIED = ("player_key", "game_id", "player", "score", "sort_score", "finished_at", "assisted")
_BEST_COLUMNS = ("board", "starts_on", "with_assisted", *_BEST_COPIED)


def _best(key: tuple[str, date, bool, str], stored: str, counted: str) -> Drift:
    board, starts_on, with_assisted, player_key = key
    where = "all time" if board == "all" else f"{board} of {starts_on}"
    hints = "with" if with_assisted else "without"
    return Drift(
        "leaderboard_bests", f"{player_key!r}, {where}, {hints} assisted games", stored, counted
    )


def lock_leaderboard(session: Session) -> None:
    """Keep wins out of the leaderboard's tables until the transaction ends; reads go on.

    On PostgreSQL an ``EXCLUSIVE`` lock on each table a win writes, taken in the order
    :func:`last_win_of_score` and :func:`record_win` take theirs: a win under way holds the
    first of them, so it finishes before this lock is granted instead of deadlocking with
    it. SQLite's write transactions already hold the whole database."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        tables = "leaderboard_totals, leaderboard_days, scores, leaderboard_bests"
        connection.execute(text(f"LOCK TABLE {tables} IN EXCLUSIVE MODE"))


def rebuild_leaderboard(session: Session) -> None:
    """Set every counter, ordinal and player's best to a recount of the ``scores`` rows: what
    :func:`leaderboard_drift` compares them with. The caller's transaction must keep wins out
    until it commits (:func:`lock_leaderboard`), or a win counted meanwhile would be lost.

    Each total's ``last_finished_at`` becomes its score's latest finish; the leaderboard
    revision is bumped, so that no process serves a page it cached before."""
    connection = session.connection()
    # One pass over ``scores`` for all the totals; scores with no win left get zeros first.
    counted = _COUNTED_TOTALS.subquery()
    connection.execute(update(_totals).values(wins=0, wins_unassisted=0, last_finished_at=None))
    connection.execute(
        update(_totals)
        .where(_totals.c.score == counted.c.score)
        .values(
            wins=counted.c.wins, wins_unassisted=counted.c.plain, last_finished_at=counted.c.last
        )
    )
    connection.execute(delete(_days))
    days = ["week", "day", "score", "wins", "wins_unassisted"]
    connection.execute(insert(_days).from_select(days, _COUNTED_DAYS))
    numbered, right, wrong = _numbered_scores()
    connection.execute(
        update(_scores).where(_scores.c.game_id == numbered.c.game_id, wrong).values(**right)
    )
    connection.execute(delete(_bests))
    for listing in _best_listings():
        connection.execute(insert(_bests).from_select(list(_BEST_COLUMNS), listing))
    connection.execute(update(_revision).values(revision=_revision.c.revision + 1))


def leaderboard_revision(session: Executor) -> int:
    """A number the database bumps whenever ``scores`` changes (migration 0004's triggers)."""
    return int(session.execute(_REVISION).scalar_one())


# ---------------------------------------------------------------- players


def insert_player(session: Session, player: PlayerRecord) -> None:
    """A new player and their zeroed stats (an IntegrityError if the name key is taken)."""
    connection = session.connection()
    connection.execute(insert(_players), player._asdict())
    zero = PlayerStatsRecord(0, 0, 0, 0, None, 0, 0, None)
    connection.execute(insert(_stats), {"player_id": player.id, **zero._asdict()})


def get_player_by_name_key(session: Executor, name_key: str) -> PlayerRecord | None:
    row = session.execute(
        select(*(_players.c[name] for name in PlayerRecord._fields)).where(
            _players.c.name_key == name_key
        )
    ).first()
    return None if row is None else PlayerRecord(*row)


def get_player(session: Executor, player_id: uuid.UUID) -> PlayerRecord | None:
    row = session.execute(
        select(*(_players.c[name] for name in PlayerRecord._fields)).where(
            _players.c.id == player_id
        )
    ).first()
    return None if row is None else PlayerRecord(*row)


def name_key_taken(session: Executor, name_key: str) -> bool:
    found = session.execute(select(_players.c.id).where(_players.c.name_key == name_key)).first()
    return found is not None


def replace_player_key_hash(
    session: Session, player_id: uuid.UUID, old_hash: str, new_hash: str
) -> bool:
    """Swap the key hash if it is still ``old_hash``: of two rotations with the same key, one
    wins and the other (whose key is by then refused) changes nothing."""
    result = session.execute(
        update(_players)
        .where(_players.c.id == player_id, _players.c.key_hash == old_hash)
        .values(key_hash=new_hash)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def get_player_stats(session: Executor, player_id: uuid.UUID) -> PlayerStatsRecord | None:
    row = session.execute(
        select(*(_stats.c[name] for name in PlayerStatsRecord._fields)).where(
            _stats.c.player_id == player_id
        )
    ).first()
    return None if row is None else PlayerStatsRecord(*row)


def _latest(at: Any) -> Any:
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


@functools.cache
def _player_games_statement(by_status: bool, after: bool) -> Any:
    """One range scan of ``ix_games_player_games`` from the newest game down."""
    statement = select(*(_games.c[name] for name in PlayerGameRecord._fields)).where(
        _games.c.player_id == bindparam("player")
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


# ---------------------------------------------------------------- idempotency keys


def insert_idempotency_claim(
    session: Session, scope: str, key_hash: str, claim: str, fingerprint: str, now: datetime
) -> None:
    """Claim a key that nobody holds (an IntegrityError if somebody does)."""
    session.execute(
        insert(_keys).values(
            scope=scope, key_hash=key_hash, claim=claim, fingerprint=fingerprint, created_at=now
        )
    )


def get_idempotency_key(session: Session, scope: str, key_hash: str) -> IdempotencyRecord | None:
    row = session.execute(
        select(*(_keys.c[name] for name in IdempotencyRecord._fields)).where(
            _keys.c.scope == scope, _keys.c.key_hash == key_hash
        )
    ).first()
    return None if row is None else IdempotencyRecord(*row)


def take_over_idempotency_claim(
    session: Session, scope: str, key_hash: str, stale_claim: str, claim: str, now: datetime
) -> bool:
    """Replace a stale claim by ours, if it is still the one we saw and still unanswered;
    of two requests that saw the same stale claim, exactly one gets True."""
    result = session.execute(
        update(_keys)
        .where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == stale_claim,
            _keys.c.status_code.is_(None),
        )
        .values(claim=claim, created_at=now)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def complete_idempotency_claim(
    session: Session,
    scope: str,
    key_hash: str,
    claim: str,
    status: int,
    body: str,
    headers: dict[str, str],
    now: datetime,
) -> bool:
    """Store the response of the request holding ``claim``; False if it no longer holds it."""
    result = session.execute(
        update(_keys)
        .where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == claim,
            _keys.c.status_code.is_(None),
        )
        .values(status_code=status, response_body=body, response_headers=headers, completed_at=now)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def release_idempotency_claim(session: Session, scope: str, key_hash: str, claim: str) -> None:
    """Forget an unanswered claim, if it is still ``claim`` (never somebody else's)."""
    session.execute(
        delete(_keys).where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == claim,
            _keys.c.status_code.is_(None),
        )
    )


def delete_idempotency_keys_before(session: Session, cutoff: datetime) -> int:
    result = session.execute(delete(_keys).where(_keys.c.created_at < cutoff))
    return int(result.rowcount)  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the daily challenge


class ChallengeEntryRecord(NamedTuple):
    """A won game of one day's challenge, as its board lists it."""

    game_id: uuid.UUID
    player: str
    score: int
    finished_at: datetime
    assisted: bool


ChallengeBoardKey = tuple[int, datetime, uuid.UUID]  # (score, finished_at, game_id)

_CHALLENGE_GAME = select(_games.c.id).where(
    _games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type),
    _games.c.player_id == bindparam("player"),
)
_CHALLENGE_COUNTS = select(
    func.count(),
    func.coalesce(func.sum(case((_games.c.status == "won", 1), else_=0)), 0),
).where(_games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type))


def challenge_game_id(session: Executor, player_id: uuid.UUID, day: date) -> uuid.UUID | None:
    """The player's game of ``day``'s challenge, if they started one."""
    found: uuid.UUID | None = session.execute(
        _CHALLENGE_GAME, {"day": day, "player": player_id}
    ).scalar()
    return found


def challenge_counts(session: Executor, day: date) -> tuple[int, int]:
    """How many games of ``day``'s challenge were started, and how many are won: a range
    scan of ``uq_games_challenge_date``."""
    played, won = session.execute(_CHALLENGE_COUNTS, {"day": day}).one()
    return int(played), int(won)


_UNFINISHED_CHALLENGES = (
    select(*_GAME_COLUMNS)
    .where(
        _games.c.status == "in_progress",
        _games.c.challenge_date < bindparam("day", type_=_games.c.challenge_date.type),
    )
    .order_by(_games.c.challenge_date, _games.c.id)
    .limit(bindparam("limit"))
)


def challenge_games_in_progress_before(
    session: Executor, day: date, limit: int
) -> list[GameRecord]:
    """Up to ``limit`` challenge games still in progress of days before ``day`` (closed days:
    they can take no more placements)."""
    rows = session.execute(_UNFINISHED_CHALLENGES, {"day": day, "limit": limit})
    return [GameRecord._make(row) for row in rows]


@functools.cache
def _challenge_board_statement(after: bool) -> Any:
    """The day's won, unassisted challenge games, best score first, earlier finish first.

    A range scan of ``uq_games_challenge_date`` for the day, sorted: a day's challenge holds
    at most one game per player, so the sort is over that day's games only."""
    columns = (_games.c[name] for name in ChallengeEntryRecord._fields[1:])
    statement = select(_games.c.id, *columns).where(
        _games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type),
        _games.c.status == "won",
        _games.c.assisted == bindparam("assisted"),
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
    return [ChallengeEntryRecord(*row) for row in session.execute(statement, parameters)]


# ---------------------------------------------------------------- analyses


class AnalysisRecord(NamedTuple):
    """One row of ``analyses``: a finished game's analysis job and, once done, its result."""

    game_id: uuid.UUID
    state: str  # queued, running, done, failed
    reviewed: int
    total: int
    result: str | None
    error: str | None
    claimed_by: str | None
    heartbeat_at: datetime | None
    attempts: int
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


_analyses = cast(Table, AnalysisRow.__table__)
_ANALYSIS_COLUMNS = tuple(_analyses.c[name] for name in AnalysisRecord._fields)


def get_analysis(session: Executor, game_id: uuid.UUID) -> AnalysisRecord | None:
    row = session.execute(select(*_ANALYSIS_COLUMNS).where(_analyses.c.game_id == game_id)).first()
    return None if row is None else AnalysisRecord(*row)


def insert_analysis_if_absent(
    session: Session, game_id: uuid.UUID, total: int, now: datetime
) -> bool:
    """Queue a game's analysis unless it has one (``INSERT ... ON CONFLICT DO NOTHING``: of
    two requests at once, one inserts and the other finds it); True if this one inserted."""
    connection = session.connection()
    dialect_insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
    statement = (
        dialect_insert(_analyses)
        .values(
            game_id=game_id, state="queued", reviewed=0, total=total, attempts=0, requested_at=now
        )
        .on_conflict_do_nothing(index_elements=["game_id"])
        .returning(_analyses.c.game_id)
    )
    return connection.execute(statement).first() is not None


def requeue_failed_analysis(session: Session, game_id: uuid.UUID, now: datetime) -> bool:
    """A failed analysis back in the queue, with its attempts counted afresh."""
    result = session.execute(
        update(_analyses)
        .where(_analyses.c.game_id == game_id, _analyses.c.state == "failed")
        .values(
            state="queued",
            reviewed=0,
            attempts=0,
            error=None,
            claimed_by=None,
            heartbeat_at=None,
            requested_at=now,
            started_at=None,
            finished_at=None,
        )
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def _claimable(stale_before: datetime, max_attempts: int) -> Any:
    """Queued jobs, and running ones whose claimer stopped renewing its heartbeat."""
    state = _analyses.c.state
    return (_analyses.c.attempts < max_attempts) & (
        (state == "queued") | ((state == "running") & (_analyses.c.heartbeat_at < stale_before))
    )


def analysis_work_exists(session: Executor, stale_before: datetime) -> bool:
    """Whether any job is queued or holds a stale claim: a cheap read (one range scan of
    ``ix_analyses_state_heartbeat_at``) before a claim's write transaction."""
    state = _analyses.c.state
    found = session.execute(
        select(_analyses.c.game_id)
        .where(
            (state == "queued") | ((state == "running") & (_analyses.c.heartbeat_at < stale_before))
        )
        .limit(1)
    ).first()
    return found is not None


def fail_abandoned_analyses(
    session: Session, stale_before: datetime, max_attempts: int, now: datetime
) -> int:
    """Jobs whose every claimer died (``max_attempts`` claims, the last one stale) fail, so
    that a job that kills its process is not taken over for ever."""
    result = session.execute(
        update(_analyses)
        .where(
            _analyses.c.state == "running",
            _analyses.c.heartbeat_at < stale_before,
            _analyses.c.attempts >= max_attempts,
        )
        .values(
            state="failed",
            error=f"its process stopped {max_attempts} times",
            finished_at=now,
            claimed_by=None,
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def claim_analysis(
    session: Session, claimer: str, now: datetime, stale_before: datetime, max_attempts: int
) -> AnalysisRecord | None:
    """Claim the oldest claimable job for ``claimer``, or None if there is none.

    PostgreSQL: the job is chosen by ``SELECT ... FOR UPDATE SKIP LOCKED`` inside the UPDATE,
    so claimers running at once each lock a different job (or none) and never wait for one
    another; a job another claimer changed since this statement's snapshot is re-checked
    against the condition on its latest version, so it is never claimed twice. SQLite (one
    writer at a time): the chosen job is updated only if it is still claimable.
    """
    values = {
        "state": "running",
        "claimed_by": claimer,
        "heartbeat_at": now,
        "attempts": _analyses.c.attempts + 1,
        "reviewed": 0,
        "started_at": func.coalesce(_analyses.c.started_at, now),
    }
    oldest = (
        select(_analyses.c.game_id)
        .where(_claimable(stale_before, max_attempts))
        .order_by(_analyses.c.requested_at, _analyses.c.game_id)
        .limit(1)
    )
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        chosen = oldest.with_for_update(skip_locked=True).scalar_subquery()
        row = connection.execute(
            update(_analyses)
            .where(_analyses.c.game_id == chosen)
            .values(**values)
            .returning(*_ANALYSIS_COLUMNS)
        ).first()
        return None if row is None else AnalysisRecord(*row)
    game_id = connection.execute(oldest).scalar()
    if game_id is None:
        return None
    claimed = connection.execute(
        update(_analyses)
        .where(_analyses.c.game_id == game_id, _claimable(stale_before, max_attempts))
        .values(**values)
    )
    if int(claimed.rowcount) != 1:
        return None
    return get_analysis(session, game_id)


def _held(game_id: uuid.UUID, claimer: str) -> Any:
    return (
        (_analyses.c.game_id == game_id)
        & (_analyses.c.claimed_by == claimer)
        & (_analyses.c.state == "running")
    )


def renew_analysis(
    session: Session, game_id: uuid.UUID, claimer: str, reviewed: int, now: datetime
) -> bool:
    """The claimer's heartbeat and progress; False if the job is no longer its own (it was
    taken over after a stale heartbeat): the claimer then stops."""
    result = session.execute(
        update(_analyses).where(_held(game_id, claimer)).values(heartbeat_at=now, reviewed=reviewed)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def finish_analysis(
    session: Session,
    game_id: uuid.UUID,
    claimer: str,
    now: datetime,
    *,
    result: str | None = None,
    error: str | None = None,
    reviewed: int,
) -> bool:
    """Store the result (``done``) or the error (``failed``) of a job the claimer still
    holds; False, and nothing stored, if it was taken over."""
    done = session.execute(
        update(_analyses)
        .where(_held(game_id, claimer))
        .values(
            state="failed" if error is not None else "done",
            result=result,
            error=error[:200] if error is not None else None,
            reviewed=reviewed,
            heartbeat_at=now,
            finished_at=now,
        )
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def release_analysis(session: Session, game_id: uuid.UUID, claimer: str) -> bool:
    """Put a job the claimer holds back in the queue (its process is stopping), so that
    another process takes it at once rather than after the heartbeat timeout."""
    result = session.execute(
        update(_analyses)
        .where(_held(game_id, claimer))
        .values(state="queued", claimed_by=None, heartbeat_at=None, reviewed=0)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


# ---------------------------------------------------------------- the rest


def get_service_secret(session: Executor, name: str) -> str | None:
    value: str | None = session.execute(
        select(_secrets.c.value).where(_secrets.c.name == name)
    ).scalar()
    return value


def ping(session: Executor) -> None:
    session.execute(text("SELECT 1"))
