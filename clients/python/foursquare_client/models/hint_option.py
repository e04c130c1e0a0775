from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.position_out import PositionOut


T = TypeVar("T", bound="HintOption")


@_attrs_define
class HintOption:
    """A legal placement and what the computer player expects of it.

    Attributes:
        placement (PositionOut): A place on the grid, relative to the first pile at (0, 0); rows grow downward.
        win_probability (float): Estimated chance to win from here.
        expected_score (float): Estimated score, counting a loss as 0 (so at most 24 x win chance).
    """

    placement: PositionOut
    win_probability: float
    expected_score: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        placement = self.placement.to_dict()

        win_probability = self.win_probability

        expected_score = self.expected_score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "placement": placement,
                "win_probability": win_probability,
                "expected_score": expected_score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.position_out import PositionOut  # noqa: PLC0415

        d = dict(src_dict)
        placement = PositionOut.from_dict(d.pop("placement"))

        win_probability = d.pop("win_probability")

        expected_score = d.pop("expected_score")

        hint_option = cls(
            placement=placement,
            win_probability=win_probability,
            expected_score=expected_score,
        )

        hint_option.additional_properties = d
        return hint_option

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
