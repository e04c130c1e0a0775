from typing import Literal

RaceOutStatus = Literal["closed", "countdown", "finished", "lobby", "running"]

RACE_OUT_STATUS_VALUES: set[RaceOutStatus] = {
    "closed",
    "countdown",
    "finished",
    "lobby",
    "running",
}


def check_race_out_status(value: str) -> RaceOutStatus:
    if value in RACE_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACE_OUT_STATUS_VALUES!r}")
