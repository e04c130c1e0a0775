from typing import Literal

RaceCreatedLevelType0 = Literal["beginner", "best", "good"]

RACE_CREATED_LEVEL_TYPE_0_VALUES: set[RaceCreatedLevelType0] = {
    "beginner",
    "best",
    "good",
}


def check_race_created_level_type_0(value: str) -> RaceCreatedLevelType0:
    if value in RACE_CREATED_LEVEL_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACE_CREATED_LEVEL_TYPE_0_VALUES!r}")
