from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.open_race_out_level_type_0 import OpenRaceOutLevelType0, check_open_race_out_level_type_0

T = TypeVar("T", bound="OpenRaceOut")


@_attrs_define
class OpenRaceOut:
    """A public race in its lobby with a free seat: what a joiner needs to choose it (join
    with `POST /races/{id}/racers`). `event: opened` and `changed` on `GET /races/open/events`
    carry the same shape.

        Attributes:
            id (UUID):
            seats (int): Racers at most, the computer included.
            racers (int): Racers in its lobby now (fewer than `seats`).
            names (list[str]): Its racers' names, in the order they joined.
            time_limit (int): Seconds from the start.
            level (None | OpenRaceOutLevelType0): The computer racer's level, if it races.
            created_at (datetime.datetime):
    """

    id: UUID
    seats: int
    racers: int
    names: list[str]
    time_limit: int
    level: None | OpenRaceOutLevelType0
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        seats = self.seats

        racers = self.racers

        names = self.names

        time_limit = self.time_limit

        level: None | str
        if isinstance(self.level, str):
            level = self.level
        else:
            level = self.level

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "seats": seats,
                "racers": racers,
                "names": names,
                "time_limit": time_limit,
                "level": level,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        seats = d.pop("seats")

        racers = d.pop("racers")

        names = cast(list[str], d.pop("names"))

        time_limit = d.pop("time_limit")

        def _parse_level(data: object) -> None | OpenRaceOutLevelType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                level_type_0 = check_open_race_out_level_type_0(data)

                return level_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | OpenRaceOutLevelType0, data)

        level = _parse_level(d.pop("level"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        open_race_out = cls(
            id=id,
            seats=seats,
            racers=racers,
            names=names,
            time_limit=time_limit,
            level=level,
            created_at=created_at,
        )

        open_race_out.additional_properties = d
        return open_race_out

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
