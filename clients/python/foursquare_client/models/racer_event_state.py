from typing import Literal

RacerEventState = Literal["in_progress", "lost", "waiting", "won"]

RACER_EVENT_STATE_VALUES: set[RacerEventState] = {
    "in_progress",
    "lost",
    "waiting",
    "won",
}


def check_racer_event_state(value: str) -> RacerEventState:
    if value in RACER_EVENT_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACER_EVENT_STATE_VALUES!r}")
