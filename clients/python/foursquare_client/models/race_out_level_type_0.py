from typing import Literal

RaceOutLevelType0 = Literal["beginner", "best", "good"]

RACE_OUT_LEVEL_TYPE_0_VALUES: set[RaceOutLevelType0] = {
    "beginner",
    "best",
    "good",
}


def check_race_out_level_type_0(value: str) -> RaceOutLevelType0:
    if value in RACE_OUT_LEVEL_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACE_OUT_LEVEL_TYPE_0_VALUES!r}")
