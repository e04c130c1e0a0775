from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="EndedEvent")


@_attrs_define
class EndedEvent:
    """`event: ended`: time is up; the final standings await the fair-play review.

    Attributes:
        status (Literal['ending'] | Unset):  Default: 'ending'.
    """

    status: Literal["ending"] | Unset = "ending"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = cast(Literal["ending"] | Unset, d.pop("status", UNSET))
        if status != "ending" and not isinstance(status, Unset):
            raise ValueError(f"status must match const 'ending', got '{status}'")

        ended_event = cls(
            status=status,
        )

        ended_event.additional_properties = d
        return ended_event

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
