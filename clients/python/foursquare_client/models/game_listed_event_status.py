from typing import Literal

GameListedEventStatus = Literal["in_progress", "lost", "won"]

GAME_LISTED_EVENT_STATUS_VALUES: set[GameListedEventStatus] = {
    "in_progress",
    "lost",
    "won",
}


def check_game_listed_event_status(value: str) -> GameListedEventStatus:
    if value in GAME_LISTED_EVENT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_LISTED_EVENT_STATUS_VALUES!r}")
