"""Leaderboards: every board of won games, their ranks and their checks."""

from api.leaderboards.check import counters_drift, repair_counters
from api.leaderboards.routes import router
from api.leaderboards.service import (
    BoardEntry,
    LeaderboardService,
    Page,
    RankedScore,
    board_reviewed_win,
    put_back_on_boards,
    ranks_of_win,
    subscribe,
    take_off_boards,
)
from api.leaderboards.settings import LeaderboardSettings
from api.leaderboards.store import ScoreRecord, win, wins_since

__all__ = [
    "BoardEntry",
    "LeaderboardService",
    "LeaderboardSettings",
    "Page",
    "RankedScore",
    "ScoreRecord",
    "board_reviewed_win",
    "counters_drift",
    "put_back_on_boards",
    "ranks_of_win",
    "repair_counters",
    "router",
    "subscribe",
    "take_off_boards",
    "win",
    "wins_since",
]
