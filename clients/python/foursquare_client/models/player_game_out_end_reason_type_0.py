from typing import Literal

PlayerGameOutEndReasonType0 = Literal["abandoned", "stock_exhausted", "too_many_face_down"]

PLAYER_GAME_OUT_END_REASON_TYPE_0_VALUES: set[PlayerGameOutEndReasonType0] = {
    "abandoned",
    "stock_exhausted",
    "too_many_face_down",
}


def check_player_game_out_end_reason_type_0(value: str) -> PlayerGameOutEndReasonType0:
    if value in PLAYER_GAME_OUT_END_REASON_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_GAME_OUT_END_REASON_TYPE_0_VALUES!r}")
