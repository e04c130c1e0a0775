from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.card_out import CardOut


T = TypeVar("T", bound="PileOut")


@_attrs_define
class PileOut:
    """A pile: its cards from bottom to top. Only the top card's face matters.

    Attributes:
        row (int):
        col (int):
        cards (list[CardOut]):
        face_up (bool): Whether the top card is face up.
    """

    row: int
    col: int
    cards: list[CardOut]
    face_up: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        row = self.row

        col = self.col

        cards = []
        for cards_item_data in self.cards:
            cards_item = cards_item_data.to_dict()
            cards.append(cards_item)

        face_up = self.face_up

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "row": row,
                "col": col,
                "cards": cards,
                "face_up": face_up,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.card_out import CardOut  # noqa: PLC0415

        d = dict(src_dict)
        row = d.pop("row")

        col = d.pop("col")

        cards = []
        _cards = d.pop("cards")
        for cards_item_data in _cards:
            cards_item = CardOut.from_dict(cards_item_data)

            cards.append(cards_item)

        face_up = d.pop("face_up")

        pile_out = cls(
            row=row,
            col=col,
            cards=cards,
            face_up=face_up,
        )

        pile_out.additional_properties = d
        return pile_out

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
