from typing import Literal

ReviewVerdictType0 = Literal["clean", "flagged"]

REVIEW_VERDICT_TYPE_0_VALUES: set[ReviewVerdictType0] = {
    "clean",
    "flagged",
}


def check_review_verdict_type_0(value: str) -> ReviewVerdictType0:
    if value in REVIEW_VERDICT_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_VERDICT_TYPE_0_VALUES!r}")
