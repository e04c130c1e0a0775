"""Leaderboards: every board of won games, their ranks and their checks."""

from api.leaderboards.check import counters_drift, repair_counters
from api.leaderboards.routes import router
from api.leaderboards.service import (
    BoardEntry,
    LeaderboardService,
    Page,
    RankedScore,
    ranks_of_win,
    subscribe,
)

__all__ = [
    "BoardEntry",
    "LeaderboardService",
    "Page",
    "RankedScore",
    "counters_drift",
    "ranks_of_win",
    "repair_counters",
    "router",
    "subscribe",
]
