from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.open_race_out import OpenRaceOut


T = TypeVar("T", bound="OpenRaces")


@_attrs_define
class OpenRaces:
    """A page of the open races, newest first.

    Attributes:
        races (list[OpenRaceOut]):
        next_cursor (None | str): Pass it back as `cursor` for the next page; null on the last.
    """

    races: list[OpenRaceOut]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        races = []
        for races_item_data in self.races:
            races_item = races_item_data.to_dict()
            races.append(races_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "races": races,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.open_race_out import OpenRaceOut  # noqa: PLC0415

        d = dict(src_dict)
        races = []
        _races = d.pop("races")
        for races_item_data in _races:
            races_item = OpenRaceOut.from_dict(races_item_data)

            races.append(races_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        open_races = cls(
            races=races,
            next_cursor=next_cursor,
        )

        open_races.additional_properties = d
        return open_races

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
