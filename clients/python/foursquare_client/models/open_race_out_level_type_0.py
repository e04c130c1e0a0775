from typing import Literal

OpenRaceOutLevelType0 = Literal["beginner", "best", "good"]

OPEN_RACE_OUT_LEVEL_TYPE_0_VALUES: set[OpenRaceOutLevelType0] = {
    "beginner",
    "best",
    "good",
}


def check_open_race_out_level_type_0(value: str) -> OpenRaceOutLevelType0:
    if value in OPEN_RACE_OUT_LEVEL_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {OPEN_RACE_OUT_LEVEL_TYPE_0_VALUES!r}")
