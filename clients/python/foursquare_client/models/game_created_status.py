from typing import Literal

GameCreatedStatus = Literal["in_progress", "lost", "won"]

GAME_CREATED_STATUS_VALUES: set[GameCreatedStatus] = {
    "in_progress",
    "lost",
    "won",
}


def check_game_created_status(value: str) -> GameCreatedStatus:
    if value in GAME_CREATED_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_CREATED_STATUS_VALUES!r}")
