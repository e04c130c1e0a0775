from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.hint_option import HintOption
    from ..models.position_out import PositionOut


T = TypeVar("T", bound="Hint")


@_attrs_define
class Hint:
    """The computer player's advice for the current card, from the public state only.

    Attributes:
        placement (PositionOut): A place on the grid, relative to the first pile at (0, 0); rows grow downward.
        win_probability (float):
        expected_score (float):
        alternatives (list[HintOption]): Every other legal placement, best first.
        policy (str): The computer player that answered.
        simulated_placements (int): The effort spent on this hint.
    """

    placement: PositionOut
    win_probability: float
    expected_score: float
    alternatives: list[HintOption]
    policy: str
    simulated_placements: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        placement = self.placement.to_dict()

        win_probability = self.win_probability

        expected_score = self.expected_score

        alternatives = []
        for alternatives_item_data in self.alternatives:
            alternatives_item = alternatives_item_data.to_dict()
            alternatives.append(alternatives_item)

        policy = self.policy

        simulated_placements = self.simulated_placements

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "placement": placement,
                "win_probability": win_probability,
                "expected_score": expected_score,
                "alternatives": alternatives,
                "policy": policy,
                "simulated_placements": simulated_placements,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.hint_option import HintOption  # noqa: PLC0415
        from ..models.position_out import PositionOut  # noqa: PLC0415

        d = dict(src_dict)
        placement = PositionOut.from_dict(d.pop("placement"))

        win_probability = d.pop("win_probability")

        expected_score = d.pop("expected_score")

        alternatives = []
        _alternatives = d.pop("alternatives")
        for alternatives_item_data in _alternatives:
            alternatives_item = HintOption.from_dict(alternatives_item_data)

            alternatives.append(alternatives_item)

        policy = d.pop("policy")

        simulated_placements = d.pop("simulated_placements")

        hint = cls(
            placement=placement,
            win_probability=win_probability,
            expected_score=expected_score,
            alternatives=alternatives,
            policy=policy,
            simulated_placements=simulated_placements,
        )

        hint.additional_properties = d
        return hint

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
