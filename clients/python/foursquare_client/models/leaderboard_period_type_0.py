from typing import Literal

LeaderboardPeriodType0 = Literal["all", "day", "week"]

LEADERBOARD_PERIOD_TYPE_0_VALUES: set[LeaderboardPeriodType0] = {
    "all",
    "day",
    "week",
}


def check_leaderboard_period_type_0(value: str) -> LeaderboardPeriodType0:
    if value in LEADERBOARD_PERIOD_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {LEADERBOARD_PERIOD_TYPE_0_VALUES!r}")
