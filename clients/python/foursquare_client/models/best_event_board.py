from typing import Literal

BestEventBoard = Literal["all_time", "day", "week"]

BEST_EVENT_BOARD_VALUES: set[BestEventBoard] = {
    "all_time",
    "day",
    "week",
}


def check_best_event_board(value: str) -> BestEventBoard:
    if value in BEST_EVENT_BOARD_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {BEST_EVENT_BOARD_VALUES!r}")
