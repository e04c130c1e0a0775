"""The daily challenge: one deal per UTC day for every player, its page and its board.

The deal of a day is derived from a server secret and the date
(:func:`api.challenges.days.daily_deal`): every process agrees without coordination, and
nobody without the secret can know a deal in advance. Its deck commitment is the same for
every challenge game of the day and is published from the start (``GET /challenges/{date}``);
the deck and salt behind it are published once the day closes, and until then no response
shows them (see :mod:`api.challenges.days` for what stays sealed).

One attempt per player per day: ``uq_games_challenge_date`` on ``(challenge_date,
player_id)`` (migration 0010) makes the database refuse a second challenge game of the same
player and day, so of two concurrent requests exactly one inserts its game.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import date, datetime

from api.challenges import store
from api.challenges.days import DailyDeal, closes_at, daily_deal, is_closed, opens_at
from api.challenges.store import ChallengeBoardKey
from api.core.clock import today
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.errors import (
    ChallengeAlreadyPlayed,
    ChallengeNotOpen,
    InvalidChallengeDate,
    InvalidCursor,
    PlayerKeyRequired,
)
from api.leaderboards.service import Page, RankedScore, ScoreRecord
from api.players import service as players

SECRET_NAME = "challenge"
# The first day a challenge can be asked about; earlier dates are refused as nonsense rather
# than computed (this feature did not exist then).
FIRST_DAY = date(2026, 1, 1)
# ``today`` or a real date from FIRST_DAY to 2099-12-31, as a regular expression, so that the
# OpenAPI document states exactly what is accepted (a client or a fuzzer reading it never
# sends a well-formed request that is refused as malformed): days of each month, and
# February 29 of leap years only. Days after today are well-formed but not open yet (404).
_YEAR = "(202[6-9]|20[3-9][0-9])"
_LEAP_YEAR = "(2028|20(3[26]|4[048]|5[26]|6[048]|7[26]|8[048]|9[26]))"
_MONTH_DAY = (
    "((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])"
    "|(0[469]|11)-(0[1-9]|[12][0-9]|30)"
    "|02-(0[1-9]|1[0-9]|2[0-8]))"
)
DAY_PATTERN = re.compile(f"today|{_YEAR}-{_MONTH_DAY}|{_LEAP_YEAR}-02-29", re.ASCII)
DAY_SCHEMA_PATTERN = f"^({DAY_PATTERN.pattern})$"
_CURSOR_KIND = "challenge_board"
_MAX_SCORE = 24


def parse_day(raw: str) -> date:
    """A challenge day from a URL or query: ``today`` or ``YYYY-MM-DD``, from
    :data:`FIRST_DAY` to today (``422 invalid_challenge_date`` for anything that does not
    match :data:`DAY_PATTERN`, ``404 challenge_not_open`` for a day still to come)."""
    if raw == "today":
        return today()
    if DAY_PATTERN.fullmatch(raw) is None:
        raise InvalidChallengeDate(
            f"{raw[:32]!r} is not a challenge date: send 'today' or a date from "
            f"{FIRST_DAY.isoformat()} on as YYYY-MM-DD"
        )
    day = date.fromisoformat(raw)  # the pattern admits real dates only
    if day > today():
        raise ChallengeNotOpen(
            f"the challenge of {day.isoformat()} opens at {opens_at(day).isoformat()}; "
            f"today's is {today().isoformat()}"
        )
    return day


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


def todays_deal(secret: bytes) -> DailyDeal:
    """Today's deal, which a new challenge game is dealt from."""
    return daily_deal(secret, today())


def require_key(key: str | None) -> str:
    """The daily challenge is for registered players: ``401 player_key_required`` without a
    player's key (checked before anything else, so a refused request touches nothing)."""
    if key is None:
        raise PlayerKeyRequired(
            "the daily challenge is for registered players: send your key as "
            "'Authorization: Bearer <key>' (register with POST /players)"
        )
    return key


def check_not_played(session: Executor, player_id: uuid.UUID, day: date) -> None:
    """``409 challenge_already_played`` if the player has a game of ``day``'s challenge. This
    answers the common case with the game's id; the unique constraint
    ``uq_games_challenge_date`` settles a race it cannot see (a concurrent insert not yet
    committed), see :func:`already_played`."""
    existing = store.challenge_game_id(session, player_id, day)
    if existing is not None:
        raise already_played(day, existing)


def already_played(day: date, game_id: uuid.UUID | None) -> ChallengeAlreadyPlayed:
    """The refusal of a second attempt at ``day``'s challenge (``game_id``: the first one's,
    if known)."""
    detail = (
        f"you have already played the daily challenge of {day.isoformat()}"
        f"{f' (game {game_id})' if game_id is not None else ''}; the next one opens at "
        f"{closes_at(day).isoformat()}"
    )
    if game_id is None:  # lost a race to a game not yet committed when checked
        return ChallengeAlreadyPlayed(detail)
    return ChallengeAlreadyPlayed(detail, game_id=str(game_id))


def counts(session: Executor, day: date) -> tuple[int, int]:
    """How many games of ``day``'s challenge were started, and how many are won."""
    return store.challenge_counts(session, day)


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
                player = players.authenticate(session, key)
                yours = store.challenge_game_id(session, player.id, day)
            played, won = store.challenge_counts(session, day)
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
            lambda session: store.challenge_board(session, day, after, limit + 1)
        )
        entries = [
            RankedScore(
                rank + i,
                ScoreRecord(
                    row.game_id, row.player, row.score, -row.score, row.finished_at, row.assisted
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
