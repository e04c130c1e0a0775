from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.position_out import PositionOut


T = TypeVar("T", bound="HindsightOptimum")


@_attrs_define
class HindsightOptimum:
    """The best score of the deal with the whole deck order known, and a line reaching it.

    Attributes:
        score (int | None): The best score found; null if no win was found.
        proven (bool): True when the search proved `score` optimal.
        upper_bound (int | None): No line scores more than this.
        line (list[PositionOut]): Placements reaching `score`.
    """

    score: int | None
    proven: bool
    upper_bound: int | None
    line: list[PositionOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        score: int | None
        score = self.score

        proven = self.proven

        upper_bound: int | None
        upper_bound = self.upper_bound

        line = []
        for line_item_data in self.line:
            line_item = line_item_data.to_dict()
            line.append(line_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "score": score,
                "proven": proven,
                "upper_bound": upper_bound,
                "line": line,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.position_out import PositionOut  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        score = _parse_score(d.pop("score"))

        proven = d.pop("proven")

        def _parse_upper_bound(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        upper_bound = _parse_upper_bound(d.pop("upper_bound"))

        line = []
        _line = d.pop("line")
        for line_item_data in _line:
            line_item = PositionOut.from_dict(line_item_data)

            line.append(line_item)

        hindsight_optimum = cls(
            score=score,
            proven=proven,
            upper_bound=upper_bound,
            line=line,
        )

        hindsight_optimum.additional_properties = d
        return hindsight_optimum

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
