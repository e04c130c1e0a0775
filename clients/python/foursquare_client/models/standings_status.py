from typing import Literal

StandingsStatus = Literal["final", "provisional"]

STANDINGS_STATUS_VALUES: set[StandingsStatus] = {
    "final",
    "provisional",
}


def check_standings_status(value: str) -> StandingsStatus:
    if value in STANDINGS_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {STANDINGS_STATUS_VALUES!r}")
