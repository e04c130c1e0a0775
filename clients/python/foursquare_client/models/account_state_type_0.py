from typing import Literal

AccountStateType0 = Literal["cleared", "confirmed", "marked"]

ACCOUNT_STATE_TYPE_0_VALUES: set[AccountStateType0] = {
    "cleared",
    "confirmed",
    "marked",
}


def check_account_state_type_0(value: str) -> AccountStateType0:
    if value in ACCOUNT_STATE_TYPE_0_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {ACCOUNT_STATE_TYPE_0_VALUES!r}")
