from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerTournamentOut")


@_attrs_define
class PlayerTournamentOut:
    """
    Attributes:
        id (UUID):
        name (str):
        ends_at (datetime.datetime):
        place (int):
        entrants (int):
        score (int):
    """

    id: UUID
    name: str
    ends_at: datetime.datetime
    place: int
    entrants: int
    score: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        ends_at = self.ends_at.isoformat()

        place = self.place

        entrants = self.entrants

        score = self.score

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "ends_at": ends_at,
                "place": place,
                "entrants": entrants,
                "score": score,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        place = d.pop("place")

        entrants = d.pop("entrants")

        score = d.pop("score")

        player_tournament_out = cls(
            id=id,
            name=name,
            ends_at=ends_at,
            place=place,
            entrants=entrants,
            score=score,
        )

        player_tournament_out.additional_properties = d
        return player_tournament_out

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
