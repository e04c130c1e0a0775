from typing import Literal

GameCreatedEndReasonType0 = Literal["abandoned", "stock_exhausted", "too_many_face_down"]

GAME_CREATED_END_REASON_TYPE_0_VALUES: set[GameCreatedEndReasonType0] = {
    "abandoned",
    "stock_exhausted",
    "too_many_face_down",
}


def check_game_created_end_reason_type_0(value: str) -> GameCreatedEndReasonType0:
    if value in GAME_CREATED_END_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_CREATED_END_REASON_TYPE_0_VALUES!r}")
