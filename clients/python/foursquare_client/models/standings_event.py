from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.entry import Entry


T = TypeVar("T", bound="StandingsEvent")


@_attrs_define
class StandingsEvent:
    """`event: standings`: the first ten, after any change.

    Attributes:
        top (list[Entry]):
    """

    top: list[Entry]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        top = []
        for top_item_data in self.top:
            top_item = top_item_data.to_dict()
            top.append(top_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "top": top,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entry import Entry  # noqa: PLC0415

        d = dict(src_dict)
        top = []
        _top = d.pop("top")
        for top_item_data in _top:
            top_item = Entry.from_dict(top_item_data)

            top.append(top_item)

        standings_event = cls(
            top=top,
        )

        standings_event.additional_properties = d
        return standings_event

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
