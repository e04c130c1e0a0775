from typing import Literal

CardOutSuit = Literal["clubs", "diamonds", "hearts", "spades"]

CARD_OUT_SUIT_VALUES: set[CardOutSuit] = {
    "clubs",
    "diamonds",
    "hearts",
    "spades",
}


def check_card_out_suit(value: str) -> CardOutSuit:
    if value in CARD_OUT_SUIT_VALUES:
        return value
    raise TypeError(f"Unexpected value {value!r}. Expected one of {CARD_OUT_SUIT_VALUES!r}")
