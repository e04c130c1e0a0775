"""The leaderboard: pages of won games, signed cursors, and pages kept while nothing changes.

Paging is by key, not offset: a cursor names the last entry of a page (its sort key) and the
rank it had, so pages never repeat or skip an entry while new wins arrive and ranks continue
from the cursor. A cursor is signed (HMAC-SHA-256 with a secret every process shares, see
:func:`api.games.credentials.service_secret`): a client can hand back only cursors this
service made, so the rank inside it can be trusted. Its fields are checked all the same, so
that even a cursor signed with a leaked secret cannot reach the database with a value out of
its columns' range.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any

from api.errors import ApiError, GameNotFound, InvalidCursor, InvalidWindow, NotOnBoard
from api.games import challenge_days
from api.games.cursors import open_cursor, seal_cursor
from api.games.games import parse_game_id
from api.schemas import Around, Leaderboard, LeaderboardEntry
from api.store import repository
from api.store.database import Database
from api.store.repository import Board, Executor, GameSummary, LeaderboardKey, ScoreRecord

_MAX_SCORE = 24  # 40 cards, at least 16 placed to win
_MAX_RANK = 2**62
_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class RankedScore:
    rank: int
    score: ScoreRecord


def board_of(period: str, day: date | None, per_player: bool, include_assisted: bool) -> Board:
    """The board a request names: ``period`` (``all``, ``day``, ``week``) around ``day``
    (today, UTC, if None), or ``422 invalid_window``."""
    if period == "all":
        if day is not None:
            raise InvalidWindow(
                "the all-time board has no date: send period=day or period=week with date"
            )
        return Board("all", None, per_player, include_assisted)
    today = challenge_days.today()
    if day is None:
        day = today
    elif day > today:
        raise InvalidWindow(
            f"{day.isoformat()} is after today ({today.isoformat()}, UTC): its board is empty "
            "until it comes"
        )
    starts_on = day if period == "day" else repository.week_of(day)
    return Board(period, starts_on, per_player, include_assisted)


def _listing(board: Board) -> list[Any]:
    return [
        board.period,
        board.starts_on.isoformat() if board.starts_on else None,
        board.per_player,
        board.with_assisted,
    ]


def encode_cursor(secret: bytes, key: LeaderboardKey, rank: int, board: Board) -> str:
    sort_score, finished_at, game_id = key
    return seal_cursor(
        secret, [sort_score, finished_at.isoformat(), game_id.hex, rank, _listing(board)]
    )


def decode_cursor(secret: bytes, cursor: str, board: Board) -> tuple[LeaderboardKey, int]:
    """The key and rank a cursor of this board names; :class:`InvalidCursor` for anything
    this service did not make, or made for another board."""
    invalid = InvalidCursor("not a cursor of this leaderboard listing; start again without one")
    fields = open_cursor(secret, cursor)
    if fields is None:
        raise invalid
    try:
        sort_score, finished_at, game_id, rank, listing = fields
        finished = datetime.fromisoformat(finished_at)
        key = (sort_score, finished, uuid.UUID(hex=game_id))
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise invalid from None
    valid = (
        type(sort_score) is int
        and -_MAX_SCORE <= sort_score <= 0
        and finished.tzinfo is not None
        and _EARLIEST <= finished <= _LATEST
        and type(rank) is int
        and 0 < rank < _MAX_RANK
        and listing == _listing(board)
    )
    if not valid:
        raise invalid
    return key, rank


def entry_of(rank: int, score: ScoreRecord) -> LeaderboardEntry:
    return LeaderboardEntry.model_construct(
        rank=rank,
        player=score.player,
        score=score.score,
        game_id=score.game_id,
        finished_at=score.finished_at,
        assisted=score.assisted,
    )


def _window(board: Board) -> dict[str, Any]:
    """The board's description in a response: its period, first and last day."""
    ends_on = None
    if board.starts_on is not None:
        ends_on = board.starts_on + timedelta(days=0 if board.period == "day" else 6)
    return {
        "period": board.period,
        "starts_on": board.starts_on,
        "ends_on": ends_on,
        "per_player": "best" if board.per_player else None,
    }


async def page(
    database: Database, secret: bytes, board: Board, limit: int, cursor: str | None
) -> Leaderboard:
    """A page of ``board`` and the cursor of the next page (None on the last page)."""
    after, rank = decode_cursor(secret, cursor, board) if cursor else (None, 0)
    rows = await database.read(lambda s: repository.leaderboard(s, board, after, limit + 1))
    ranked = [RankedScore(rank + i, row) for i, row in enumerate(rows[:limit], start=1)]
    next_cursor = None
    if len(rows) > limit:
        last = ranked[-1]
        key = (last.score.sort_score, last.score.finished_at, last.score.game_id)
        next_cursor = encode_cursor(secret, key, last.rank, board)
    entries = [entry_of(item.rank, item.score) for item in ranked]
    return Leaderboard.model_construct(entries=entries, next_cursor=next_cursor, **_window(board))


async def around(
    database: Database,
    game_id: str,
    period: str,
    per_player: bool,
    include_assisted: bool,
    count: int,
) -> Around:
    """A won game's rank on its board of ``period`` and the ``count`` entries above and
    below it; ``404 game_not_found`` or ``409 not_on_board``."""
    game_uuid = parse_game_id(game_id)

    def read(session: Executor) -> tuple[repository.Standing | None, GameSummary | None]:
        found = repository.standing(session, game_uuid, period, per_player, include_assisted, count)
        return found, None if found else repository.game_summary(session, game_uuid)

    found, summary = await database.read(read)
    if found is None:
        raise _not_on_board(game_id, summary, period, per_player, include_assisted)
    board = Board(period, found.starts_on, per_player, include_assisted)
    entries = [
        *(entry_of(found.rank - i, row) for i, row in reversed(list(enumerate(found.above, 1)))),
        entry_of(found.rank, found.entry),
        *(entry_of(found.rank + i, row) for i, row in enumerate(found.below, 1)),
    ]
    return Around.model_construct(
        game_id=game_uuid, rank=found.rank, size=found.size, entries=entries, **_window(board)
    )


def _not_on_board(
    game_id: str,
    summary: GameSummary | None,
    period: str,
    per_player: bool,
    include_assisted: bool,
) -> ApiError:
    if summary is None:
        return GameNotFound(f"there is no game {game_id[:64]!r}")
    if summary.status != "won":
        why = f"it is {summary.status.replace('_', ' ')}: only won games are ranked"
    elif summary.assisted and not include_assisted:
        why = "its player asked for hints: send include_assisted=true"
    else:
        why = f"it is not its player's best game of that {period} board"
    board = f"{period}{', per_player=best' if per_player else ''}"
    return NotOnBoard(f"game {game_id} is not on the {board} board: {why}")


class PageCache:
    """Rendered leaderboard pages, kept while the leaderboard does not change.

    A 100-entry page costs more to fetch and encode than anything else the service serves,
    and every player asks for the same few pages. The database numbers each state of
    ``scores`` (``leaderboard_revision``, bumped by triggers in the same transaction as any
    change), so a request reads that one number and, if a page was rendered at the same
    revision, sends it as it is. Revisions are read before the rows they are stored with, so
    a page is never older than the revision it is filed under. The cache holds one revision
    at a time and at most ``capacity`` pages of it.
    """

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self._revision: int | None = None
        self._pages: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, revision: int, key: Hashable) -> bytes | None:
        if revision != self._revision:
            return None
        body = self._pages.get(key)
        if body is not None:
            self._pages.move_to_end(key)
        return body

    def put(self, revision: int, key: Hashable, body: bytes) -> None:
        if self.capacity == 0:
            return
        if self._revision is not None and revision < self._revision:
            return  # rendered from an older state than the pages held now
        if revision != self._revision:
            self._pages.clear()
            self._revision = revision
        self._pages[key] = body
        self._pages.move_to_end(key)
        while len(self._pages) > self.capacity:
            self._pages.popitem(last=False)

    def __len__(self) -> int:
        return len(self._pages)


async def cached_page(
    database: Database,
    pages: PageCache,
    secret: bytes,
    board: Board,
    limit: int,
    cursor: str | None,
) -> bytes:
    """A page as JSON: the one rendered at the current leaderboard revision, if any."""
    revision = await database.read(repository.leaderboard_revision)
    request = (board, limit, cursor)
    body = pages.get(revision, request)
    if body is None:
        rendered = await page(database, secret, board, limit, cursor)
        body = rendered.model_dump_json().encode()
        pages.put(revision, request, body)
    return body


def counters_drift(database: Database) -> list[repository.Drift]:
    """:func:`api.store.repository.leaderboard_drift` in one snapshot, so that wins recorded
    during the check cannot look like drift: a ``REPEATABLE READ`` transaction on PostgreSQL
    (wins go on meanwhile); on SQLite a write transaction, which holds the database (wins
    wait the moment the check takes), since its read connections run in autocommit."""
    if database.is_sqlite:
        with database.transaction() as session:
            return repository.leaderboard_drift(session)
    with database.write_engine.connect() as connection:
        connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():
            return repository.leaderboard_drift(connection)


def repair_counters(database: Database) -> list[repository.Drift]:
    """What :func:`counters_drift` finds, set right: if anything differs, every counter,
    ordinal and player's best is rebuilt from the won games, in a transaction that keeps
    wins out until it commits (:func:`api.store.repository.lock_leaderboard`). Returns what
    differed; nothing is written when nothing did.

    The check runs first, on its own snapshot, without holding wins back: a recount takes
    seconds per 100,000 wins, and wins should wait only for the rebuild, and only when
    there is something to repair. The rebuild does not need the check's answer (it sets
    everything from the ``scores`` rows as they are when it holds the lock), so wins
    recorded between the two are counted."""
    drift = counters_drift(database)
    if drift:
        with database.transaction() as session:
            repository.lock_leaderboard(session)
            repository.rebuild_leaderboard(session)
    return drift
