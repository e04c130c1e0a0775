from typing import Literal

GameOutEndReasonType0 = Literal["abandoned", "stock_exhausted", "too_many_face_down"]

GAME_OUT_END_REASON_TYPE_0_VALUES: set[GameOutEndReasonType0] = {
    "abandoned",
    "stock_exhausted",
    "too_many_face_down",
}


def check_game_out_end_reason_type_0(value: str) -> GameOutEndReasonType0:
    if value in GAME_OUT_END_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {GAME_OUT_END_REASON_TYPE_0_VALUES!r}")
