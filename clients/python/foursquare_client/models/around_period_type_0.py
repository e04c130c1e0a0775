from typing import Literal

AroundPeriodType0 = Literal["all", "day", "week"]

AROUND_PERIOD_TYPE_0_VALUES: set[AroundPeriodType0] = {
    "all",
    "day",
    "week",
}


def check_around_period_type_0(value: str) -> AroundPeriodType0:
    if value in AROUND_PERIOD_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {AROUND_PERIOD_TYPE_0_VALUES!r}")
