from typing import Literal

FairPlayOutState = Literal["clean", "cleared", "confirmed", "flagged", "held", "pending"]

FAIR_PLAY_OUT_STATE_VALUES: set[FairPlayOutState] = {
    "clean",
    "cleared",
    "confirmed",
    "flagged",
    "held",
    "pending",
}


def check_fair_play_out_state(value: str) -> FairPlayOutState:
    if value in FAIR_PLAY_OUT_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FAIR_PLAY_OUT_STATE_VALUES!r}")
