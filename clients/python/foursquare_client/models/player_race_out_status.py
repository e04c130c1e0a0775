from typing import Literal

PlayerRaceOutStatus = Literal["closed", "countdown", "finished", "lobby", "running"]

PLAYER_RACE_OUT_STATUS_VALUES: set[PlayerRaceOutStatus] = {
    "closed",
    "countdown",
    "finished",
    "lobby",
    "running",
}


def check_player_race_out_status(value: str) -> PlayerRaceOutStatus:
    if value in PLAYER_RACE_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_RACE_OUT_STATUS_VALUES!r}")
