"""The day of a daily challenge that a request names (``/challenges/{day}``, the
leaderboard's ``?challenge=``): ``today`` or ``YYYY-MM-DD``, and the refusals of the others.

Here rather than in :mod:`api.challenges`, whose routes and service parse a day, because the
leaderboard's route refuses a day alike and the leaderboards cannot build on the challenges
(the challenges build on them). The days' own rules, which every feature dealing a shared
deal uses, are :mod:`api.core.days`'."""

from __future__ import annotations

import re
from datetime import date

from api.core.clock import today
from api.core.days import opens_at
from api.core.errors import echo
from api.games.errors import ChallengeNotOpen, InvalidChallengeDate

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
