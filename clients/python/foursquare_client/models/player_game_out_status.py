from typing import Literal

PlayerGameOutStatus = Literal["in_progress", "lost", "won"]

PLAYER_GAME_OUT_STATUS_VALUES: set[PlayerGameOutStatus] = {
    "in_progress",
    "lost",
    "won",
}


def check_player_game_out_status(value: str) -> PlayerGameOutStatus:
    if value in PLAYER_GAME_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_GAME_OUT_STATUS_VALUES!r}")
