"""The days of the daily challenge: when one opens and closes, and what stays sealed until then.

Kept apart from :mod:`api.challenges.service` because the games need these rules (what a
challenge game shows, and when it takes placements) and the challenge's service needs none of
the games'.

A day's challenge opens at 00:00 UTC and closes at 00:00 UTC the next day. Until it closes, a
challenge game is *sealed*: its deck and salt (``reveal``) are not shown even once it is
over, its piles and history are shown to its player only, and placements are accepted; from
the close on, it is public like any game and takes no more placements.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from api.core.clock import now, today
from api.core.errors import ChallengeNotOpen, InvalidChallengeDate, echo
from api.core.secrets import deck_commitment
from engine import Game

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


def _a_day(raw: str) -> bool:
    try:
        return re.fullmatch(r"\d{4}-\d{2}-\d{2}", raw, re.ASCII) is not None and bool(
            date.fromisoformat(raw)
        )
    except ValueError:
        return False


def opens_at(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def closes_at(day: date) -> datetime:
    return opens_at(day) + timedelta(days=1)


def is_closed(day: date) -> bool:
    return now() >= closes_at(day)


def is_sealed(challenge_date: date | None, sealed: bool = False) -> bool:
    """Whether a game of ``challenge_date``'s challenge (None: an ordinary game), or a game
    ``sealed`` by its race until the race ends, must still hide its deck and keep its piles
    and history to its player."""
    return sealed or (challenge_date is not None and not is_closed(challenge_date))


@dataclass(frozen=True)
class SharedDeal:
    """A deal that several games share (a day's challenge, a race): each game is dealt from
    its seed and salt, so all carry the same commitment."""

    seed: str  # the engine's shuffle seed (never shown)
    salt: str  # revealed with the deck once every game of it may be seen
    deck: tuple[str, ...]  # card codes, first drawn first
    commitment: str  # published from the start


@dataclass(frozen=True)
class DailyDeal(SharedDeal):
    """One day's challenge deal: what every challenge game of ``day`` is dealt from."""

    day: date


def shared_deal(secret: bytes, kind: str, name: str) -> SharedDeal:
    """The deal called ``kind:name``: a pure function of the secret and the name, so every
    process and replica sharing the secret deals the same one without talking to each
    other, and nobody without the secret can compute it (HMAC-SHA-256 is a pseudorandom
    function of its key). The seed and the salt come from distinct messages, so revealing
    the salt says nothing about the seed of another deal."""
    seed = hmac.new(secret, f"{kind}:{name}".encode(), hashlib.sha256).hexdigest()
    salt = hmac.new(secret, f"{kind}-salt:{name}".encode(), hashlib.sha256).hexdigest()[:32]
    deck = tuple(card.code for card in Game.from_seed(seed).deck)
    return SharedDeal(seed, salt, deck, deck_commitment(deck, salt))


def daily_deal(secret: bytes, day: date) -> DailyDeal:
    """The deal of ``day``: :func:`shared_deal` named by the date."""
    deal = shared_deal(secret, "daily", day.isoformat())
    return DailyDeal(deal.seed, deal.salt, deal.deck, deal.commitment, day)


def parse_day(raw: str) -> date:
    """A challenge day from a URL or query: ``today`` or ``YYYY-MM-DD``, from
    :data:`FIRST_DAY` to today (``422 invalid_challenge_date`` for anything that does not
    match :data:`DAY_PATTERN`, ``404 challenge_not_open`` for a day still to come)."""
    if raw == "today":
        return today()
    if DAY_PATTERN.fullmatch(raw) is None:
        # The true reason: no such day (2026-13-45), or a day without a challenge (2025-12-31).
        reason = "has no challenge" if _a_day(raw) else "is not a day of the calendar"
        raise InvalidChallengeDate(
            f"{echo(raw)!r} {reason}: send 'today' or a date from {FIRST_DAY.isoformat()} on "
            "as YYYY-MM-DD"
        )
    day = date.fromisoformat(raw)  # the pattern admits real dates only
    if day > today():
        raise ChallengeNotOpen(
            f"the challenge of {day.isoformat()} opens at {opens_at(day).isoformat()}; "
            f"today's is {today().isoformat()}"
        )
    return day
