from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_out import GameOut
    from ..models.placement_out import PlacementOut


T = TypeVar("T", bound="PlacementCreated")


@_attrs_define
class PlacementCreated:
    """The placement just made and the game after it.

    Attributes:
        placement (PlacementOut): One placement: the card played, where, what it flipped and the status after it.
        game (GameOut): A game as anyone may see it: everything but the order of the stock.
    """

    placement: PlacementOut
    game: GameOut
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        placement = self.placement.to_dict()

        game = self.game.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "placement": placement,
                "game": game,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_out import GameOut  # noqa: PLC0415
        from ..models.placement_out import PlacementOut  # noqa: PLC0415

        d = dict(src_dict)
        placement = PlacementOut.from_dict(d.pop("placement"))

        game = GameOut.from_dict(d.pop("game"))

        placement_created = cls(
            placement=placement,
            game=game,
        )

        placement_created.additional_properties = d
        return placement_created

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
