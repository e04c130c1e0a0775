from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.card_out_suit import CardOutSuit, check_card_out_suit

T = TypeVar("T", bound="CardOut")


@_attrs_define
class CardOut:
    """A card. Suits never matter for the rules.

    Attributes:
        rank (int): 1 (Ace) to 10.
        suit (CardOutSuit):
        code (str): Rank (A, 2..10) then suit (C, D, H, S).
    """

    rank: int
    suit: CardOutSuit
    code: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank = self.rank

        suit: str = self.suit

        code = self.code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "suit": suit,
                "code": code,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        rank = d.pop("rank")

        suit = check_card_out_suit(d.pop("suit"))

        code = d.pop("code")

        card_out = cls(
            rank=rank,
            suit=suit,
            code=code,
        )

        card_out.additional_properties = d
        return card_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
