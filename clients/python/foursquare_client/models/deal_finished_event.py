from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DealFinishedEvent")


@_attrs_define
class DealFinishedEvent:
    """`event: deal_finished`: an entrant's deal is over; its standing now (never a card).

    Attributes:
        number (int): The entrant's number.
        name (str):
        deal (int):
        deals_played (int):
        score (int):
        cards (int):
    """

    number: int
    name: str
    deal: int
    deals_played: int
    score: int
    cards: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        name = self.name

        deal = self.deal

        deals_played = self.deals_played

        score = self.score

        cards = self.cards

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "name": name,
                "deal": deal,
                "deals_played": deals_played,
                "score": score,
                "cards": cards,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        number = d.pop("number")

        name = d.pop("name")

        deal = d.pop("deal")

        deals_played = d.pop("deals_played")

        score = d.pop("score")

        cards = d.pop("cards")

        deal_finished_event = cls(
            number=number,
            name=name,
            deal=deal,
            deals_played=deals_played,
            score=score,
            cards=cards,
        )

        deal_finished_event.additional_properties = d
        return deal_finished_event

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
