"""The leaderboards: boards of won games by period, pages of them, a game's place on one, and
the record of a win on every board in the transaction that ends its game.

Paging is by key, not offset: a cursor names the last entry of a page (its sort key) and the
rank it had, so pages never repeat or skip an entry while new wins arrive and ranks continue
from the cursor. A cursor is signed (:mod:`api.core.cursors`): a client can hand back only
cursors this service made, so the rank inside it can be trusted. Its fields are checked all
the same, so that even a cursor signed with a leaked secret cannot reach the database with a
value out of its columns' range.
"""

from __future__ import annotations

import uuid
from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Literal, NamedTuple

from sqlalchemy.orm import Session

from api.core import clock
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.errors import InvalidCursor, echo
from api.core.names import name_skeleton
from api.games import (
    GameFacts,
    GameHooks,
    GameNotFound,
    GameService,
    RaceGamePrivate,
    parse_game_id,
)
from api.leaderboards import store
from api.leaderboards.cache import PageCache
from api.leaderboards.errors import InvalidWindow, NotOnBoard
from api.leaderboards.recount import lock_leaderboard, rebuild_leaderboard
from api.leaderboards.schemas import Around, Leaderboard, LeaderboardEntry
from api.leaderboards.store import BoardEntry as BoardEntry  # an entry, as other features see it
from api.leaderboards.store import LeaderboardKey, Listing, ScoreRecord

_MAX_SCORE = 24  # 40 cards, at least 16 placed to win
_MAX_RANK = 2**62
_EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
_LATEST = datetime(9000, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class RankedScore:
    rank: int
    score: BoardEntry


class Window(NamedTuple):
    """The days a listing covers, in the fields a page of it ends with: its period, first
    and last day (None for all time), and ``best`` for each player's best only."""

    period: str
    starts_on: date | None
    ends_on: date | None
    per_player: Literal["best"] | None

    @classmethod
    def of(cls, listing: Listing) -> Window:
        ends_on = None
        if listing.starts_on is not None:
            ends_on = listing.starts_on + timedelta(days=0 if listing.period == "day" else 6)
        per_player: Literal["best"] | None = "best" if listing.per_player else None
        return cls(listing.period, listing.starts_on, ends_on, per_player)


@dataclass(frozen=True)
class Page:
    """One page of a board, and the cursor of the next (None on the last page)."""

    entries: list[RankedScore]
    next_cursor: str | None
    window: Window | None  # None for a daily challenge's board
    assisted_left_out: int | None = None  # None: assisted games are on it (or none are played)
    held_for_review: int | None = None  # None: a daily challenge's board


def entry_out(rank: int, score: BoardEntry) -> LeaderboardEntry:
    return LeaderboardEntry(
        rank=rank,
        player=score.player,
        score=score.score,
        game_id=score.game_id,
        finished_at=score.finished_at,
        assisted=score.assisted,
        registered=score.registered,
    )


def leaderboard_out(page: Page) -> Leaderboard:
    """A page as ``GET /leaderboard`` answers it (a daily challenge's, without a window)."""
    return Leaderboard.model_validate(
        {
            "entries": [entry_out(entry.rank, entry.score) for entry in page.entries],
            "next_cursor": page.next_cursor,
            **(page.window._asdict() if page.window else {}),
            "assisted_left_out": page.assisted_left_out,
            "held_for_review": page.held_for_review,
        }
    )


# ---------------------------------------------------------------- inside a game's unit of work


def subscribe(hooks: GameHooks) -> None:
    """Put each won game on every board in the transaction that ends it, its finish stamped
    after the last win of its score (ties rank in finish order), and give a won game's rank.
    A race's game is put on the boards when its race reveals it; the computer's never."""
    hooks.subscribe(
        "boards",
        ending=_hold_finish_order,
        ended=_record_win,
        revealed=_record_revealed_win,
        rank=rank_of_game,
    )


def _on_boards(game: GameFacts) -> bool:
    return game.score is not None and not game.computer


def _hold_finish_order(session: Session, game: GameFacts) -> datetime | None:
    # Locks the count of wins of this score until the transaction ends (see
    # api.leaderboards.store.last_win_of_score): the end is stamped after the latest of them.
    # A win the fair-play review must see first is counted when it is found clean.
    if not _on_boards(game) or game.sealed or game.reviewed:
        return None
    assert game.score is not None
    return store.last_win_of_score(session, game.score)


def _record_win(session: Session, game: GameFacts) -> None:
    if _on_boards(game) and not game.sealed:
        if game.reviewed:
            store.hold(session, game.game_id, game.at)
        else:
            _record(session, game, game.at)


def _record_revealed_win(session: Session, game: GameFacts) -> None:
    """A race's won game, public now: on the boards at its finish, or just after the last win
    of its score recorded since (ties rank in the order they are counted); held until the
    fair-play review has seen it if it must."""
    if _on_boards(game):
        if game.reviewed:
            store.hold(session, game.game_id, game.at)
        else:
            _record_late(session, game)


def _record_late(session: Session, game: GameFacts) -> None:
    assert game.score is not None
    last = store.last_win_of_score(session, game.score)
    at = game.at if last is None or game.at > last else last + timedelta(microseconds=1)
    _record(session, game, at)


# ---------------------------------------------------------------- the fair-play review's word


def board_reviewed_win(session: Session, game: GameFacts) -> None:
    """A held win found clean, or cleared by a moderator: on every board at its finish, or
    just after the last win of its score counted since, as a race's revealed win. Counted
    first, then released: the same lock order as a win's (the totals, then the revision)."""
    _record_late(session, game)
    store.release(session, [game.game_id])


def take_off_boards(session: Session, games: list[tuple[uuid.UUID, datetime]]) -> None:
    """Games of an account marked by the fair-play review leave every board (held, and
    counted in the captions): their rows go and the counters, ordinals and players' bests
    are counted again (a moderator's rare decision; :func:`rebuild_leaderboard`)."""
    if not games:
        return
    lock_leaderboard(session)
    removed = store.remove_scores(session, [game_id for game_id, _ in games])
    for game_id, finished_at in games:
        store.hold(session, game_id, finished_at)
    if removed:
        rebuild_leaderboard(session)


def put_back_on_boards(session: Session, games: list[GameFacts]) -> None:
    """Games of an account cleared by a moderator are back on every board at their own
    finish, as if never taken off: rows inserted, then everything counted again."""
    if not games:
        return
    lock_leaderboard(session)
    rows = []
    for game in games:
        assert game.score is not None
        record = ScoreRecord(
            game.game_id, game.player, game.score, -game.score, game.at, game.assisted
        )
        rows.append((record, name_skeleton(game.player)))
    store.insert_scores(session, rows)
    store.release(session, [game.game_id for game in games])
    rebuild_leaderboard(session)


def _record(session: Session, game: GameFacts, at: datetime) -> None:
    assert game.score is not None
    record = ScoreRecord(game.game_id, game.player, game.score, -game.score, at, game.assisted)
    store.record_win(session, record, name_skeleton(game.player))


def rank_of_game(session: Executor, game_id: uuid.UUID, assisted: bool) -> int | None:
    """A won game's rank on the all-time board it is on (every game's, if it was assisted;
    the default board's otherwise); None if it is on none."""
    return store.rank_of(session, game_id, "all", False, assisted)


def ranks_of_win(session: Executor, game_id: uuid.UUID, assisted: bool) -> dict[str, int | None]:
    """A won game's rank on each board that holds it (``all``, ``day``, ``week``; with
    assisted games if it was assisted, as :func:`rank_of_game`)."""
    return {
        period: store.rank_of(session, game_id, period, False, assisted) for period in store.PERIODS
    }


def listing_of(period: str, day: date | None, per_player: bool, include_assisted: bool) -> Listing:
    """The board a request names: ``period`` (``all``, ``day``, ``week``) around ``day``
    (today, UTC, if None), or ``422 invalid_window``."""
    if period == "all":
        if day is not None:
            raise InvalidWindow(
                "the all-time board has no date: send period=day or period=week with date"
            )
        return Listing("all", None, per_player, include_assisted)
    today = clock.today()
    if day is None:
        day = today
    elif day > today:
        raise InvalidWindow(
            f"{day.isoformat()} is after today ({today.isoformat()}, UTC): its board is empty "
            "until it comes"
        )
    starts_on = day if period == "day" else store.week_of(day)
    return Listing(period, starts_on, per_player, include_assisted)


# ---------------------------------------------------------------- the leaderboard routes


class LeaderboardService:
    """Pages of the boards and a game's place on them; each method one unit of work."""

    def __init__(self, database: Database, cursor_secret: bytes, cached_pages: int) -> None:
        self.database = database
        self.cursor_secret = cursor_secret
        self.pages = PageCache(cached_pages)

    async def rendered_page(self, listing: Listing, limit: int, cursor: str | None) -> bytes:
        """A page of ``listing`` as JSON, with the cursor of the next page (none on the last
        page): the one kept from an earlier request if the leaderboard has not changed since
        (the same revision: see :class:`PageCache`)."""
        revision = await self.database.read(store.leaderboard_revision)
        request: Hashable = (listing, limit, cursor)
        body = self.pages.get(revision, request)
        if body is not None:
            return body
        secret = self.cursor_secret
        after, rank = _decode_cursor(secret, cursor, listing) if cursor else (None, 0)

        def read(session: Executor) -> tuple[list[BoardEntry], int | None, int]:
            rows = store.leaderboard(session, listing, after, limit + 1)
            return rows, *store.left_out(session, listing)

        rows, left_out, held = await self.database.read(read)
        ranked = [RankedScore(rank + i, row) for i, row in enumerate(rows[:limit], start=1)]
        next_cursor = None
        if len(rows) > limit:
            last = ranked[-1].score
            key = [last.sort_score, last.finished_at.isoformat(), last.game_id.hex]
            next_cursor = seal_cursor(secret, [*key, rank + limit, _listing_fields(listing)])
        page = Page(ranked, next_cursor, Window.of(listing), left_out, held)
        body = leaderboard_out(page).model_dump_json().encode()
        self.pages.put(revision, request, body)
        return body

    async def standing(
        self, game_id: str, period: str, per_player: bool, include_assisted: bool, count: int
    ) -> Around:
        """A won game's rank on its board of ``period`` and the ``count`` entries above and
        below it; ``404 game_not_found`` or ``409 not_on_board``.

        Several statements, each a consistent snapshot: the rank and entry, then the
        neighbours, read by key from that entry, then the size. A win recorded between them
        can appear among the neighbours with a rank one off, or be counted in the size;
        paging the board is exact."""
        game_uuid = parse_game_id(game_id)

        def read(session: Executor) -> Around:
            found = store.entry_of(session, game_uuid, period, per_player, include_assisted)
            if found is None:
                summary = GameService.summaries(session, [game_uuid]).get(game_uuid)
                if summary is None:
                    raise GameNotFound(f"there is no game {echo(game_id)!r}")
                if summary.sealed:
                    raise RaceGamePrivate(
                        "this race game is its racer's only until the race ends: it is on a "
                        "board once the race is over"
                    )
                if summary.computer:
                    why = "it is the computer's: the computer is on no board"
                elif summary.status != "won":
                    why = f"it is {summary.status.replace('_', ' ')}: only won games are ranked"
                elif summary.assisted and not include_assisted:
                    why = "its player asked for hints: send include_assisted=true"
                else:
                    why = f"it is not its player's best game of that {period} board"
                board = f"{period}{', per_player=best' if per_player else ''}"
                raise NotOnBoard(f"game {game_id} is not on the {board} board: {why}")
            rank, starts_on, entry = found
            listing = Listing(period, starts_on, per_player, include_assisted)
            key = (entry.sort_score, entry.finished_at, entry.game_id)
            above = store.leaderboard(session, listing, key, count, descending=True)
            below = store.leaderboard(session, listing, key, count)
            entries = [
                *(entry_out(rank - i, row) for i, row in reversed(list(enumerate(above, 1)))),
                entry_out(rank, entry),
                *(entry_out(rank + i, row) for i, row in enumerate(below, 1)),
            ]
            return Around.model_validate(
                {
                    "game_id": game_uuid,
                    "rank": rank,
                    "size": store.board_size(session, listing),
                    "entries": entries,
                    **Window.of(listing)._asdict(),
                }
            )

        return await self.database.read(read)


def _listing_fields(listing: Listing) -> list[Any]:
    return [
        listing.period,
        listing.starts_on.isoformat() if listing.starts_on else None,
        listing.per_player,
        listing.with_assisted,
    ]


def _decode_cursor(secret: bytes, cursor: str, listing: Listing) -> tuple[LeaderboardKey, int]:
    """The key and rank a cursor of this listing names; :class:`InvalidCursor` for anything
    this service did not make, or made for another listing."""
    invalid = InvalidCursor("not a cursor of this leaderboard listing; start again without one")
    fields = open_cursor(secret, cursor)
    if fields is None:
        raise invalid
    try:
        sort_score, finished_at, game_id, rank, listed = fields
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
        and listed == _listing_fields(listing)
    )
    if not valid:
        raise invalid
    return key, rank
