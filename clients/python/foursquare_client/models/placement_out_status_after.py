from typing import Literal

PlacementOutStatusAfter = Literal["in_progress", "lost", "won"]

PLACEMENT_OUT_STATUS_AFTER_VALUES: set[PlacementOutStatusAfter] = {
    "in_progress",
    "lost",
    "won",
}


def check_placement_out_status_after(value: str) -> PlacementOutStatusAfter:
    if value in PLACEMENT_OUT_STATUS_AFTER_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {PLACEMENT_OUT_STATUS_AFTER_VALUES!r}")
