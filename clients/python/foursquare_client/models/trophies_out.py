from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TrophiesOut")


@_attrs_define
class TrophiesOut:
    """A player's tournament places: finished tournaments they played a deal of, and how
    many they finished first, second and third (`GET /players/{name}/tournaments`).

        Attributes:
            first (int | Unset):  Default: 0.
            second (int | Unset):  Default: 0.
            third (int | Unset):  Default: 0.
            played (int | Unset):  Default: 0.
    """

    first: int | Unset = 0
    second: int | Unset = 0
    third: int | Unset = 0
    played: int | Unset = 0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        first = self.first

        second = self.second

        third = self.third

        played = self.played

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if first is not UNSET:
            field_dict["first"] = first
        if second is not UNSET:
            field_dict["second"] = second
        if third is not UNSET:
            field_dict["third"] = third
        if played is not UNSET:
            field_dict["played"] = played

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        first = d.pop("first", UNSET)

        second = d.pop("second", UNSET)

        third = d.pop("third", UNSET)

        played = d.pop("played", UNSET)

        trophies_out = cls(
            first=first,
            second=second,
            third=third,
            played=played,
        )

        trophies_out.additional_properties = d
        return trophies_out

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
