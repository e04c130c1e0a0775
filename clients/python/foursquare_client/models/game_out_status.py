from typing import Literal

GameOutStatus = Literal["in_progress", "lost", "won"]

GAME_OUT_STATUS_VALUES: set[GameOutStatus] = {
    "in_progress",
    "lost",
    "won",
}


def check_game_out_status(value: str) -> GameOutStatus:
    if value in GAME_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_OUT_STATUS_VALUES!r}")
