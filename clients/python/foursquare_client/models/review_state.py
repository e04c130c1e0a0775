from typing import Literal

ReviewState = Literal["done", "queued", "running"]

REVIEW_STATE_VALUES: set[ReviewState] = {
    "done",
    "queued",
    "running",
}


def check_review_state(value: str) -> ReviewState:
    if value in REVIEW_STATE_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_STATE_VALUES!r}")
