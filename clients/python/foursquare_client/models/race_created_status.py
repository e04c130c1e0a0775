from typing import Literal

RaceCreatedStatus = Literal["closed", "countdown", "finished", "lobby", "running"]

RACE_CREATED_STATUS_VALUES: set[RaceCreatedStatus] = {
    "closed",
    "countdown",
    "finished",
    "lobby",
    "running",
}


def check_race_created_status(value: str) -> RaceCreatedStatus:
    if value in RACE_CREATED_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACE_CREATED_STATUS_VALUES!r}")
