from typing import Literal

FairPlayOutStatus = Literal["clean", "cleared", "confirmed", "flagged", "held", "pending"]

FAIR_PLAY_OUT_STATUS_VALUES: set[FairPlayOutStatus] = {
    "clean",
    "cleared",
    "confirmed",
    "flagged",
    "held",
    "pending",
}


def check_fair_play_out_status(value: str) -> FairPlayOutStatus:
    if value in FAIR_PLAY_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {FAIR_PLAY_OUT_STATUS_VALUES!r}")
