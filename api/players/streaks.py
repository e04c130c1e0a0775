"""A player's daily challenge streaks: runs of consecutive UTC days with a challenge game
finished (``played``), and won (``won``), counted at request time from the player's
challenge days (:func:`api.games.challenge_days`, one index range of a row a day played).

Counted, not kept: a run is broken by a day *not* played, which no game's moment announces,
so a figure kept in the stats row would still need the day it was last moved, and a
challenge game of an earlier day may end after a later one's (an old day's game, played on).
The current run ends on the last day counted; it still stands if that day is today or
yesterday (today not yet played breaks nothing until it is over), and is 0 otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from api.players.schemas import ChallengeStreakOut

_DAY = timedelta(days=1)


def challenge_streak(days: Sequence[tuple[date, bool]], today: date) -> ChallengeStreakOut:
    """The streaks of ``days`` (each finished day, oldest first, and whether it was won) as
    they stand on ``today``."""
    played, best_played = _runs([day for day, _ in days], today)
    won, best_won = _runs([day for day, was_won in days if was_won], today)
    return ChallengeStreakOut(played=played, won=won, best_played=best_played, best_won=best_won)


def _runs(days: list[date], today: date) -> tuple[int, int]:
    """The current run of consecutive days ending on the last of ``days`` (0 if that was
    before yesterday) and the longest run."""
    best = run = 0
    previous: date | None = None
    for day in days:
        run = run + 1 if previous is not None and day - previous == _DAY else 1
        best = max(best, run)
        previous = day
    current = run if previous is not None and today - previous <= _DAY else 0
    return current, best
