from typing import Literal

ReviewDecisionType0 = Literal["cleared", "confirmed"]

REVIEW_DECISION_TYPE_0_VALUES: set[ReviewDecisionType0] = {
    "cleared",
    "confirmed",
}


def check_review_decision_type_0(value: str) -> ReviewDecisionType0:
    if value in REVIEW_DECISION_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {REVIEW_DECISION_TYPE_0_VALUES!r}")
