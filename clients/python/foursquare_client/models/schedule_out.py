from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ScheduleOut")


@_attrs_define
class ScheduleOut:
    """A schedule, and when its next tournament starts.

    Attributes:
        id (UUID):
        name (str):
        cron (str):
        duration_minutes (int):
        deals (int):
        guests (bool):
        max_entrants (int | None):
        announce_ahead_minutes (int):
        created_at (datetime.datetime):
        cancelled_at (datetime.datetime | None): When an operator deleted it: it announces no more tournaments.
        from_settings (bool): Set in `FOURSQUARE_TOURNAMENT_SCHEDULES` (its id is derived from its name): each server's
            start sets it again as the setting says.
        next_start (datetime.datetime | None): The next start of its tournaments, later than now (null once deleted).
    """

    id: UUID
    name: str
    cron: str
    duration_minutes: int
    deals: int
    guests: bool
    max_entrants: int | None
    announce_ahead_minutes: int
    created_at: datetime.datetime
    cancelled_at: datetime.datetime | None
    from_settings: bool
    next_start: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        cron = self.cron

        duration_minutes = self.duration_minutes

        deals = self.deals

        guests = self.guests

        max_entrants: int | None
        max_entrants = self.max_entrants

        announce_ahead_minutes = self.announce_ahead_minutes

        created_at = self.created_at.isoformat()

        cancelled_at: None | str
        if isinstance(self.cancelled_at, datetime.datetime):
            cancelled_at = self.cancelled_at.isoformat()
        else:
            cancelled_at = self.cancelled_at

        from_settings = self.from_settings

        next_start: None | str
        if isinstance(self.next_start, datetime.datetime):
            next_start = self.next_start.isoformat()
        else:
            next_start = self.next_start

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "cron": cron,
                "duration_minutes": duration_minutes,
                "deals": deals,
                "guests": guests,
                "max_entrants": max_entrants,
                "announce_ahead_minutes": announce_ahead_minutes,
                "created_at": created_at,
                "cancelled_at": cancelled_at,
                "from_settings": from_settings,
                "next_start": next_start,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        cron = d.pop("cron")

        duration_minutes = d.pop("duration_minutes")

        deals = d.pop("deals")

        guests = d.pop("guests")

        def _parse_max_entrants(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_entrants = _parse_max_entrants(d.pop("max_entrants"))

        announce_ahead_minutes = d.pop("announce_ahead_minutes")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_cancelled_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                cancelled_at_type_0 = datetime.datetime.fromisoformat(data)

                return cancelled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        cancelled_at = _parse_cancelled_at(d.pop("cancelled_at"))

        from_settings = d.pop("from_settings")

        def _parse_next_start(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_start_type_0 = datetime.datetime.fromisoformat(data)

                return next_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_start = _parse_next_start(d.pop("next_start"))

        schedule_out = cls(
            id=id,
            name=name,
            cron=cron,
            duration_minutes=duration_minutes,
            deals=deals,
            guests=guests,
            max_entrants=max_entrants,
            announce_ahead_minutes=announce_ahead_minutes,
            created_at=created_at,
            cancelled_at=cancelled_at,
            from_settings=from_settings,
            next_start=next_start,
        )

        schedule_out.additional_properties = d
        return schedule_out

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
