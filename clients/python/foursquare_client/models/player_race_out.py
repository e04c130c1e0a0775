from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.player_race_out_status import PlayerRaceOutStatus, check_player_race_out_status

T = TypeVar("T", bound="PlayerRaceOut")


@_attrs_define
class PlayerRaceOut:
    """
    Attributes:
        race_id (UUID):
        status (PlayerRaceOutStatus):
        created_at (datetime.datetime):
        racers (int):
        rank (int | None): The player's place once the race is finished.
    """

    race_id: UUID
    status: PlayerRaceOutStatus
    created_at: datetime.datetime
    racers: int
    rank: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        race_id = str(self.race_id)

        status: str = self.status

        created_at = self.created_at.isoformat()

        racers = self.racers

        rank: int | None
        rank = self.rank

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "race_id": race_id,
                "status": status,
                "created_at": created_at,
                "racers": racers,
                "rank": rank,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        race_id = UUID(d.pop("race_id"))

        status = check_player_race_out_status(d.pop("status"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        racers = d.pop("racers")

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))

        player_race_out = cls(
            race_id=race_id,
            status=status,
            created_at=created_at,
            racers=racers,
            rank=rank,
        )

        player_race_out.additional_properties = d
        return player_race_out

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
