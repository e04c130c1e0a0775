from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RaceClosedEvent")


@_attrs_define
class RaceClosedEvent:
    """`event: closed`: the race's lobby had no join or leave for
    `FOURSQUARE_RACE_LOBBY_MINUTES` (30 by default) and the service closed it: nobody starts
    it or joins it any more. The stream closes after it.

        Attributes:
            reason (Literal['idle']): Why: `idle`, nobody came or went for a while.
    """

    reason: Literal["idle"]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = cast(Literal["idle"], d.pop("reason"))
        if reason != "idle":
            raise ValueError(f"reason must match const 'idle', got '{reason}'")

        race_closed_event = cls(
            reason=reason,
        )

        race_closed_event.additional_properties = d
        return race_closed_event

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
