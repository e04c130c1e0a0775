from typing import Literal

TournamentOutStatus = Literal["announced", "cancelled", "ending", "finished", "running"]

TOURNAMENT_OUT_STATUS_VALUES: set[TournamentOutStatus] = {
    "announced",
    "cancelled",
    "ending",
    "finished",
    "running",
}


def check_tournament_out_status(value: str) -> TournamentOutStatus:
    if value in TOURNAMENT_OUT_STATUS_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {TOURNAMENT_OUT_STATUS_VALUES!r}")
