from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.deal_dealt_game import DealDealtGame


T = TypeVar("T", bound="DealDealt")


@_attrs_define
class DealDealt:
    """Your game of your next deal: play it through `POST /games/{game_id}/placements`.

    Attributes:
        deal (int):
        game_id (UUID):
        game (DealDealtGame): The game as `POST /games` answers it; its `token` is the credential that plays it (a
            guest's tournament token, or the game's own for an account, whose key plays it too).
    """

    deal: int
    game_id: UUID
    game: DealDealtGame
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deal = self.deal

        game_id = str(self.game_id)

        game = self.game.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deal": deal,
                "game_id": game_id,
                "game": game,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deal_dealt_game import DealDealtGame  # noqa: PLC0415

        d = dict(src_dict)
        deal = d.pop("deal")

        game_id = UUID(d.pop("game_id"))

        game = DealDealtGame.from_dict(d.pop("game"))

        deal_dealt = cls(
            deal=deal,
            game_id=game_id,
            game=game,
        )

        deal_dealt.additional_properties = d
        return deal_dealt

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
