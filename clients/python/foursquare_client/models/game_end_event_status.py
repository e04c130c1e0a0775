from typing import Literal

GameEndEventStatus = Literal["lost", "won"]

GAME_END_EVENT_STATUS_VALUES: set[GameEndEventStatus] = {
    "lost",
    "won",
}


def check_game_end_event_status(value: str) -> GameEndEventStatus:
    if value in GAME_END_EVENT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_END_EVENT_STATUS_VALUES!r}")
