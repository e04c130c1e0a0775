from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlacementIn")


@_attrs_define
class PlacementIn:
    """Where to put the current card.

    Attributes:
        row (int): Relative to the first pile at (0, 0); no placement can ever use more than 3.
        col (int): Relative to the first pile at (0, 0); no placement can ever use more than 3.
    """

    row: int
    col: int

    def to_dict(self) -> dict[str, Any]:
        row = self.row

        col = self.col

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "row": row,
                "col": col,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        row = d.pop("row")

        col = d.pop("col")

        placement_in = cls(
            row=row,
            col=col,
        )

        return placement_in
