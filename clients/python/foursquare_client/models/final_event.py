from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.winner import Winner


T = TypeVar("T", bound="FinalEvent")


@_attrs_define
class FinalEvent:
    """`event: final`: the final standings are written (the stream closes after it).

    Attributes:
        winners (list[Winner]):
    """

    winners: list[Winner]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        winners = []
        for winners_item_data in self.winners:
            winners_item = winners_item_data.to_dict()
            winners.append(winners_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "winners": winners,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.winner import Winner  # noqa: PLC0415

        d = dict(src_dict)
        winners = []
        _winners = d.pop("winners")
        for winners_item_data in _winners:
            winners_item = Winner.from_dict(winners_item_data)

            winners.append(winners_item)

        final_event = cls(
            winners=winners,
        )

        final_event.additional_properties = d
        return final_event

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
