from typing import Literal

GameListedEventReasonType0 = Literal["abandoned", "stock_exhausted", "too_many_face_down"]

GAME_LISTED_EVENT_REASON_TYPE_0_VALUES: set[GameListedEventReasonType0] = {
    "abandoned",
    "stock_exhausted",
    "too_many_face_down",
}


def check_game_listed_event_reason_type_0(value: str) -> GameListedEventReasonType0:
    if value in GAME_LISTED_EVENT_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_LISTED_EVENT_REASON_TYPE_0_VALUES!r}")
