"""A schedule's cron expression (UTC, through ``croniter``): whether it is one, the shortest
time between two of its starts, and its starts in a span of time. Pure functions of the
expression: the schedules' requests, settings and announcer all ask here."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, time, timedelta
from itertools import pairwise

from croniter import CroniterBadDateError, CroniterError, croniter

# Where the search for a schedule's shortest gap between starts begins: the start of a leap
# year, so that a pattern of February's last days is seen in full.
_REFERENCE = datetime(2028, 1, 1, tzinfo=UTC)
# How far it looks at the days a schedule fires on. Only gaps shorter than the longest
# tournament (7 days) matter, and the days a cron fires on repeat with the months and
# weekdays, so two years (one of them a leap year) show every gap that short.
_HORIZON = timedelta(days=2 * 366)
_DAY_MINUTES = 24 * 60


def parse(expression: str) -> croniter:
    """The iterator of ``expression``, or ``ValueError`` saying what is wrong with it:
    croniter's reason, or that it is not five fields (minute hour day month weekday: a
    tournament starts on a minute) or one of croniter's ``@`` names (``@daily``)."""
    fields = expression.split()
    if not expression.startswith("@") and len(fields) != 5:
        raise ValueError(
            f"{expression!r} has {len(fields)} fields: a schedule's cron expression has five "
            "(minute hour day-of-month month day-of-week, in UTC), or is one of @hourly, "
            "@daily, @weekly, @monthly, @yearly"
        )
    try:
        return croniter(expression, _REFERENCE)
    except CroniterError as error:
        raise ValueError(f"{expression!r} is not a cron expression: {error}") from None


def shortest_gap(expression: str, longer_than: timedelta) -> timedelta | None:
    """The shortest time between two consecutive starts of ``expression`` if it is shorter
    than ``longer_than`` (a tournament's duration: its tournaments would overlap), else None.
    ``ValueError`` if the expression is none, or never fires.

    A cron expression fires at the same minutes of each day it fires on (its minutes and
    hours are a product), so the gaps are those within a day, computed from the fields, and
    those from one firing day's last start to the next one's first, which depend only on the
    days: one step of croniter per firing day, and only when a day's wrap-around could be
    short enough to matter.
    """
    minutes, hours = parse(expression).expanded[:2]
    starts = sorted(
        hour * 60 + minute
        for hour in (range(24) if hours == ["*"] else hours)
        for minute in (range(60) if minutes == ["*"] else minutes)
    )
    days = croniter(expression, _REFERENCE - timedelta(seconds=1))
    try:
        start = days.get_next(datetime)
    except CroniterBadDateError:
        raise ValueError(f"{expression!r} never fires") from None
    limit = longer_than / timedelta(minutes=1)
    within = min((b - a for a, b in pairwise(starts)), default=None)
    if within is not None and within < limit:
        return timedelta(minutes=within)
    first, last = starts[0], starts[-1]
    if _DAY_MINUTES + first - last >= limit:
        return None  # even on consecutive days, the gap is long enough
    while start - _REFERENCE <= _HORIZON:
        # The next firing after this day's last start is the next firing day's first.
        days.set_current(datetime.combine(start.date(), time(last // 60, last % 60), UTC))
        try:
            following: datetime = days.get_next(datetime)
        except CroniterBadDateError:
            return None  # it fires no more
        gap = (following.date() - start.date()).days * _DAY_MINUTES + first - last
        if gap < limit:
            return timedelta(minutes=gap)
        start = following
    return None


def starts_between(expression: str, after: datetime, until: datetime) -> Iterator[datetime]:
    """The starts of ``expression`` later than ``after`` and not later than ``until``, in
    order (aware UTC datetimes)."""
    iterator = croniter(expression, after.astimezone(UTC))
    while True:
        try:
            start: datetime = iterator.get_next(datetime)
        except CroniterBadDateError:
            return  # it fires no more
        if start > until:
            return
        yield start
