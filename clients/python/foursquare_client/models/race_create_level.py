from typing import Literal

RaceCreateLevel = Literal["beginner", "best", "good"]

RACE_CREATE_LEVEL_VALUES: set[RaceCreateLevel] = {
    "beginner",
    "best",
    "good",
}


def check_race_create_level(value: str) -> RaceCreateLevel:
    if value in RACE_CREATE_LEVEL_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {RACE_CREATE_LEVEL_VALUES!r}")
