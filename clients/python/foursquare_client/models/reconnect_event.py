from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReconnectEvent")


@_attrs_define
class ReconnectEvent:
    """`event: reconnect`: this watcher fell too far behind (its queue filled up) and is
    closed; reconnect, sending `Last-Event-ID` (a browser's EventSource does).

        Attributes:
            last_event_id (int | None): The id of the last event sent on this stream (null on `/events`, whose events have
                no id).
    """

    last_event_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        last_event_id: int | None
        last_event_id = self.last_event_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "last_event_id": last_event_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_last_event_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_event_id = _parse_last_event_id(d.pop("last_event_id"))

        reconnect_event = cls(
            last_event_id=last_event_id,
        )

        reconnect_event.additional_properties = d
        return reconnect_event

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
