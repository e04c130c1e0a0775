from typing import Literal

ReadLeaderboardPeriod = Literal["all", "day", "week"]

READ_LEADERBOARD_PERIOD_VALUES: set[ReadLeaderboardPeriod] = {
    "all",
    "day",
    "week",
}


def check_read_leaderboard_period(value: str) -> ReadLeaderboardPeriod:
    if value in READ_LEADERBOARD_PERIOD_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {READ_LEADERBOARD_PERIOD_VALUES!r}")
