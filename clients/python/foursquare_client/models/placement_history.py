from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.placement_out import PlacementOut


T = TypeVar("T", bound="PlacementHistory")


@_attrs_define
class PlacementHistory:
    """Every placement of a game, in order (at most 40).

    Attributes:
        game_id (UUID):
        placements (list[PlacementOut]):
    """

    game_id: UUID
    placements: list[PlacementOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game_id = str(self.game_id)

        placements = []
        for placements_item_data in self.placements:
            placements_item = placements_item_data.to_dict()
            placements.append(placements_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "placements": placements,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.placement_out import PlacementOut  # noqa: PLC0415

        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        placements = []
        _placements = d.pop("placements")
        for placements_item_data in _placements:
            placements_item = PlacementOut.from_dict(placements_item_data)

            placements.append(placements_item)

        placement_history = cls(
            game_id=game_id,
            placements=placements,
        )

        placement_history.additional_properties = d
        return placement_history

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
