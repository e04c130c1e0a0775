"""The daily challenge: one deal per UTC day for every player, its page and its board.

The deal of a day is derived from a server secret and the date
(:func:`api.core.days.daily_deal`): every process agrees without coordination, and
nobody without the secret can know a deal in advance. Its deck commitment is the same for
every challenge game of the day and is published from the start (``GET /challenges/{date}``);
the deck and salt behind it are published once the day closes, and until then no response
shows them (see :mod:`api.core.days` for what stays sealed).

One attempt per player per day: ``uq_games_challenge_date`` on ``(challenge_date,
player_id)`` (migration 0010) makes the database refuse a second challenge game of the same
player and day, so of two concurrent requests exactly one inserts its game.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date, datetime

from api.accounts import authenticate
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.days import DailyDeal, daily_deal, is_closed
from api.core.errors import (
    InvalidCursor,
)
from api.games import (
    ChallengeBoardKey,
    GameService,
    challenge_board,
    challenge_counts,
    parse_day,
)
from api.leaderboards import BoardEntry, Page, RankedScore

SECRET_NAME = "challenge"
_CURSOR_KIND = "challenge_board"
_MAX_SCORE = 24


@dataclass(frozen=True)
class ChallengeDay:
    """A day's challenge as its page shows it: the deal's commitment, how many played and
    won, its bounds, the deal itself once the day has closed, and the asking player's game
    of that day, if any."""

    day: date
    your_game_id: uuid.UUID | None
    deal: DailyDeal
    played: int
    won: int
    closed: bool


# ---------------------------------------------------------------- inside a game's unit of work


def counts(session: Executor, day: date) -> tuple[int, int]:
    """How many games of ``day``'s challenge were started, and how many are won."""
    return challenge_counts(session, day)


# ---------------------------------------------------------------- the challenge's routes


class ChallengeService:
    """A day's page and its board; each method one unit of work."""

    def __init__(self, database: Database, challenge_secret: bytes, cursor_secret: bytes) -> None:
        self.database = database
        self.challenge_secret = challenge_secret
        self.cursor_secret = cursor_secret

    async def day(self, raw_day: str, key: str | None) -> ChallengeDay:
        """A day's page (``today`` or ``YYYY-MM-DD``); with a player's key, also their game
        of that day if any (``403 invalid_token`` for a key that is no player's current
        key)."""
        day = parse_day(raw_day)

        def read(session: Executor) -> ChallengeDay:
            yours = None
            if key is not None:
                player = authenticate(session, key)
                yours = GameService.challenge_game_of(session, player.id, day)
            played, won = challenge_counts(session, day)
            deal = daily_deal(self.challenge_secret, day)
            return ChallengeDay(day, yours, deal, played, won, is_closed(day))

        return await self.database.read(read)

    async def board_page(self, raw_day: str, limit: int, cursor: str | None) -> Page:
        """A page of ``raw_day``'s challenge board: its won games, best score first, earlier
        finish first on ties; the cursor of the next page is bound to this day's board."""
        day = parse_day(raw_day)
        secret = self.cursor_secret
        after, rank = _decode_cursor(secret, cursor, day) if cursor else (None, 0)
        rows = await self.database.read(
            lambda session: challenge_board(session, day, after, limit + 1)
        )
        entries = [
            RankedScore(
                rank + i,
                # Registered: the daily challenge is played with an account only.
                BoardEntry(
                    row.game_id,
                    row.player,
                    row.score,
                    -row.score,
                    row.finished_at,
                    row.assisted,
                    registered=True,
                ),
            )
            for i, row in enumerate(rows[:limit], start=1)
        ]
        next_cursor = None
        if len(rows) > limit:
            last = rows[limit - 1]
            next_cursor = _encode_cursor(
                secret, day, (last.score, last.finished_at, last.game_id), rank + limit
            )
        return Page(entries, next_cursor, None)


def _encode_cursor(secret: bytes, day: date, key: ChallengeBoardKey, rank: int) -> str:
    score, finished_at, game_id = key
    return seal_cursor(
        secret, [_CURSOR_KIND, day.isoformat(), score, finished_at.isoformat(), game_id.hex, rank]
    )


def _decode_cursor(secret: bytes, cursor: str, day: date) -> tuple[ChallengeBoardKey, int]:
    """The key and rank a cursor of this day's board names; ``422 invalid_cursor`` for any
    other cursor (another day's, another listing's, or one this service did not make)."""
    invalid = InvalidCursor("not a cursor of this challenge board; start again without one")
    fields = open_cursor(secret, cursor)
    if fields is None or len(fields) != 6:
        raise invalid
    kind, listing_day, score, finished_at, game_hex, rank = fields
    try:
        finished = datetime.fromisoformat(finished_at)
        game_id = uuid.UUID(hex=game_hex)
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise invalid from None
    valid = (
        kind == _CURSOR_KIND
        and listing_day == day.isoformat()
        and type(score) is int
        and 0 <= score <= _MAX_SCORE
        and finished.tzinfo is not None
        and type(rank) is int
        and 0 < rank < 2**62
    )
    if not valid:
        raise invalid
    return (score, finished, game_id), rank
