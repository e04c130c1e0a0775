from typing import Literal

PlayerGameOutReviewType0 = Literal["clean", "cleared", "confirmed", "flagged", "held", "pending"]

PLAYER_GAME_OUT_REVIEW_TYPE_0_VALUES: set[PlayerGameOutReviewType0] = {
    "clean",
    "cleared",
    "confirmed",
    "flagged",
    "held",
    "pending",
}


def check_player_game_out_review_type_0(value: str) -> PlayerGameOutReviewType0:
    if value in PLAYER_GAME_OUT_REVIEW_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLAYER_GAME_OUT_REVIEW_TYPE_0_VALUES!r}")
