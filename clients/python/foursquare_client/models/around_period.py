from typing import Literal

AroundPeriod = Literal["all", "day", "week"]

AROUND_PERIOD_VALUES: set[AroundPeriod] = {
    "all",
    "day",
    "week",
}


def check_around_period(value: str) -> AroundPeriod:
    if value in AROUND_PERIOD_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AROUND_PERIOD_VALUES!r}")
