from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.racer_event import RacerEvent


T = TypeVar("T", bound="RaceResultEvent")


@_attrs_define
class RaceResultEvent:
    """`event: result`: the race is over; its racers in their final order, and the deal's
    reveal (check it against the race's `deck_commitment`). The stream stays open for a
    `rematch`.

        Attributes:
            racers (list[RacerEvent]):
            deck (list[str]): The deal's card codes, first drawn first.
            salt (str):
    """

    racers: list[RacerEvent]
    deck: list[str]
    salt: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        racers = []
        for racers_item_data in self.racers:
            racers_item = racers_item_data.to_dict()
            racers.append(racers_item)

        deck = self.deck

        salt = self.salt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "racers": racers,
                "deck": deck,
                "salt": salt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.racer_event import RacerEvent  # noqa: PLC0415

        d = dict(src_dict)
        racers = []
        _racers = d.pop("racers")
        for racers_item_data in _racers:
            racers_item = RacerEvent.from_dict(racers_item_data)

            racers.append(racers_item)

        deck = cast(list[str], d.pop("deck"))

        salt = d.pop("salt")

        race_result_event = cls(
            racers=racers,
            deck=deck,
            salt=salt,
        )

        race_result_event.additional_properties = d
        return race_result_event

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
