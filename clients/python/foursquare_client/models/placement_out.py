from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.placement_out_status_after import PlacementOutStatusAfter, check_placement_out_status_after

if TYPE_CHECKING:
    from ..models.card_out import CardOut
    from ..models.flip_out import FlipOut


T = TypeVar("T", bound="PlacementOut")


@_attrs_define
class PlacementOut:
    """One placement: the card played, where, what it flipped and the status after it.

    Attributes:
        number (int): 1 for the first placement of the game.
        row (int):
        col (int):
        card (CardOut): A card. Suits never matter for the rules.
        flipped (list[FlipOut]): Sorted by row, then column.
        status_after (PlacementOutStatusAfter):
        stock_count (int): Cards left in the stock after this placement, not counting the card drawn next (the game's
            `stock_count` then; a won game's score).
        created_at (datetime.datetime):
    """

    number: int
    row: int
    col: int
    card: CardOut
    flipped: list[FlipOut]
    status_after: PlacementOutStatusAfter
    stock_count: int
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        row = self.row

        col = self.col

        card = self.card.to_dict()

        flipped = []
        for flipped_item_data in self.flipped:
            flipped_item = flipped_item_data.to_dict()
            flipped.append(flipped_item)

        status_after: str = self.status_after

        stock_count = self.stock_count

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "row": row,
                "col": col,
                "card": card,
                "flipped": flipped,
                "status_after": status_after,
                "stock_count": stock_count,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_out import CardOut  # noqa: PLC0415
        from ..models.flip_out import FlipOut  # noqa: PLC0415

        d = dict(src_dict)
        number = d.pop("number")

        row = d.pop("row")

        col = d.pop("col")

        card = CardOut.from_dict(d.pop("card"))

        flipped = []
        _flipped = d.pop("flipped")
        for flipped_item_data in _flipped:
            flipped_item = FlipOut.from_dict(flipped_item_data)

            flipped.append(flipped_item)

        status_after = check_placement_out_status_after(d.pop("status_after"))

        stock_count = d.pop("stock_count")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        placement_out = cls(
            number=number,
            row=row,
            col=col,
            card=card,
            flipped=flipped,
            status_after=status_after,
            stock_count=stock_count,
            created_at=created_at,
        )

        placement_out.additional_properties = d
        return placement_out

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
