"""The leaderboard: pages of won games, signed cursors, and pages kept while nothing changes.

Paging is by key, not offset: a cursor names the last entry of a page (its sort key) and the
rank it had, so pages never repeat or skip an entry while new wins arrive and ranks continue
from the cursor. A cursor is signed (HMAC-SHA-256 with a secret every process shares, see
:func:`cursor_secret`): a client can hand back only cursors this service made, so the rank
inside it can be trusted. Its fields are checked all the same, so that even a cursor signed
with a leaked secret cannot reach the database with a value out of its columns' range.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime

from api.errors import InvalidCursor
from api.games.cursors import open_cursor, seal_cursor
from api.schemas import Leaderboard, LeaderboardEntry
from api.store import repository
from api.store.database import Database
from api.store.repository import Executor, LeaderboardKey, ScoreRecord

CURSOR_SECRET_NAME = "cursor"
_MAX_SCORE = 24  # 40 cards, at least 16 placed to win
_MAX_RANK = 2**62
_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class RankedScore:
    rank: int
    score: ScoreRecord


def cursor_secret(session: Executor, configured: str | None) -> bytes:
    """The key that signs cursors: the setting if given, else the random one migration 0006
    stored in the database (so every process and replica on one database agrees)."""
    if configured:
        return configured.encode()
    stored = repository.get_service_secret(session, CURSOR_SECRET_NAME)
    if stored is None:
        raise RuntimeError("no cursor secret: run the migrations (foursquare migrate)")
    return stored.encode()


def encode_cursor(secret: bytes, key: LeaderboardKey, rank: int, include_assisted: bool) -> str:
    sort_score, finished_at, game_id = key
    return seal_cursor(
        secret, [sort_score, finished_at.isoformat(), game_id.hex, rank, include_assisted]
    )


def decode_cursor(secret: bytes, cursor: str, include_assisted: bool) -> tuple[LeaderboardKey, int]:
    """The key and rank a cursor of this listing names; :class:`InvalidCursor` for anything
    this service did not make, or made for the other listing."""
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
        and listing is include_assisted
    )
    if not valid:
        raise invalid
    return key, rank


async def page(
    database: Database,
    secret: bytes,
    limit: int,
    cursor: str | None,
    *,
    include_assisted: bool = False,
) -> Leaderboard:
    """A page of won games and the cursor of the next page (None on the last page)."""
    after, rank = decode_cursor(secret, cursor, include_assisted) if cursor else (None, 0)
    rows = await database.read(
        lambda s: repository.leaderboard(s, after, limit + 1, include_assisted=include_assisted)
    )
    ranked = [RankedScore(rank + i, row) for i, row in enumerate(rows[:limit], start=1)]
    next_cursor = None
    if len(rows) > limit:
        last = ranked[-1]
        key = (last.score.sort_score, last.score.finished_at, last.score.game_id)
        next_cursor = encode_cursor(secret, key, last.rank, include_assisted)
    entries = [
        LeaderboardEntry.model_construct(
            rank=item.rank,
            player=item.score.player,
            score=item.score.score,
            game_id=item.score.game_id,
            finished_at=item.score.finished_at,
            assisted=item.score.assisted,
        )
        for item in ranked
    ]
    return Leaderboard.model_construct(entries=entries, next_cursor=next_cursor)


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
    limit: int,
    cursor: str | None,
    include_assisted: bool,
) -> bytes:
    """A page as JSON: the one rendered at the current leaderboard revision, if any."""
    revision = await database.read(repository.leaderboard_revision)
    request = (limit, cursor, include_assisted)
    body = pages.get(revision, request)
    if body is None:
        rendered = await page(database, secret, limit, cursor, include_assisted=include_assisted)
        body = rendered.model_dump_json().encode()
        pages.put(revision, request, body)
    return body
