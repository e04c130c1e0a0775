from typing import Literal

DecisionInAction = Literal["clear", "confirm"]

DECISION_IN_ACTION_VALUES: set[DecisionInAction] = {
    "clear",
    "confirm",
}


def check_decision_in_action(value: str) -> DecisionInAction:
    if value in DECISION_IN_ACTION_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {DECISION_IN_ACTION_VALUES!r}")
