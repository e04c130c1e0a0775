from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Timing")


@_attrs_define
class Timing:
    """
    Attributes:
        placements (int):
        median_seconds (float): The median time between two placements.
        fastest_seconds (float):
        variation (float): The spread of those times over their mean: a person's varies from card to card, a fixed pause
            gives nearly 0.
        under_one_second (int): Placements made less than a second after the last.
    """

    placements: int
    median_seconds: float
    fastest_seconds: float
    variation: float
    under_one_second: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        placements = self.placements

        median_seconds = self.median_seconds

        fastest_seconds = self.fastest_seconds

        variation = self.variation

        under_one_second = self.under_one_second

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "placements": placements,
                "median_seconds": median_seconds,
                "fastest_seconds": fastest_seconds,
                "variation": variation,
                "under_one_second": under_one_second,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        placements = d.pop("placements")

        median_seconds = d.pop("median_seconds")

        fastest_seconds = d.pop("fastest_seconds")

        variation = d.pop("variation")

        under_one_second = d.pop("under_one_second")

        timing = cls(
            placements=placements,
            median_seconds=median_seconds,
            fastest_seconds=fastest_seconds,
            variation=variation,
            under_one_second=under_one_second,
        )

        timing.additional_properties = d
        return timing

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
