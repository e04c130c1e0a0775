from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BoardRanks")


@_attrs_define
class BoardRanks:
    """A won game's rank on the all-time board and on the boards of the day and the week it
    was won in (the boards with games played with hints if it was, as `GET /games/{id}`'s
    `rank`).

        Attributes:
            all_time (int):
            day (int):
            week (int):
    """

    all_time: int
    day: int
    week: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        all_time = self.all_time

        day = self.day

        week = self.week

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "all_time": all_time,
                "day": day,
                "week": week,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        all_time = d.pop("all_time")

        day = d.pop("day")

        week = d.pop("week")

        board_ranks = cls(
            all_time=all_time,
            day=day,
            week=week,
        )

        board_ranks.additional_properties = d
        return board_ranks

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
