from typing import Literal

DecisionAction = Literal["clear", "confirm"]

DECISION_ACTION_VALUES: set[DecisionAction] = {
    "clear",
    "confirm",
}


def check_decision_action(value: str) -> DecisionAction:
    if value in DECISION_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_ACTION_VALUES!r}")
