from typing import Literal

GameEndEventReasonType0 = Literal["abandoned", "stock_exhausted", "too_many_face_down"]

GAME_END_EVENT_REASON_TYPE_0_VALUES: set[GameEndEventReasonType0] = {
    "abandoned",
    "stock_exhausted",
    "too_many_face_down",
}


def check_game_end_event_reason_type_0(value: str) -> GameEndEventReasonType0:
    if value in GAME_END_EVENT_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_END_EVENT_REASON_TYPE_0_VALUES!r}")
