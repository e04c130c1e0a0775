from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_race_out import PlayerRaceOut


T = TypeVar("T", bound="PlayerRaces")


@_attrs_define
class PlayerRaces:
    """A player's race figures, and their races, newest first (the last 100).

    Attributes:
        races_played (int): Races finished.
        races_won (int): Races finished first, against another racer at least (the ranking: `GET /races/{id}`).
        races (list[PlayerRaceOut]):
    """

    races_played: int
    races_won: int
    races: list[PlayerRaceOut]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        races_played = self.races_played

        races_won = self.races_won

        races = []
        for races_item_data in self.races:
            races_item = races_item_data.to_dict()
            races.append(races_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "races_played": races_played,
                "races_won": races_won,
                "races": races,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_race_out import PlayerRaceOut  # noqa: PLC0415

        d = dict(src_dict)
        races_played = d.pop("races_played")

        races_won = d.pop("races_won")

        races = []
        _races = d.pop("races")
        for races_item_data in _races:
            races_item = PlayerRaceOut.from_dict(races_item_data)

            races.append(races_item)

        player_races = cls(
            races_played=races_played,
            races_won=races_won,
            races=races,
        )

        player_races.additional_properties = d
        return player_races

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
