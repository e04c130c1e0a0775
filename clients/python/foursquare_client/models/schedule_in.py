from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ScheduleIn")


@_attrs_define
class ScheduleIn:
    """A recurring tournament: one starts at each time of `cron` (UTC), lasts
    `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
    taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`.

        Attributes:
            name (str): Each of its tournaments' name (1 to 64 characters).
            cron (str): When each tournament starts, in UTC: five fields (minute hour day-of-month month day-of-week, as
                `croniter` reads them) or `@hourly`, `@daily`, `@weekly`, `@monthly`, `@yearly`. It may not fire more often than
                `duration_minutes` (its tournaments would overlap).
            duration_minutes (int): How long each tournament runs.
            deals (int): The deals each entrant plays, in order, each once.
            guests (bool | Unset): Guests (no account) may enter. Default: False.
            max_entrants (int | None | Unset): Entrants at most (null: no cap).
            announce_ahead_minutes (int | Unset): How long before its start each tournament is announced (and open to
                entrants). Default: 60.
    """

    name: str
    cron: str
    duration_minutes: int
    deals: int
    guests: bool | Unset = False
    max_entrants: int | None | Unset = UNSET
    announce_ahead_minutes: int | Unset = 60

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        cron = self.cron

        duration_minutes = self.duration_minutes

        deals = self.deals

        guests = self.guests

        max_entrants: int | None | Unset
        if isinstance(self.max_entrants, Unset):
            max_entrants = UNSET
        else:
            max_entrants = self.max_entrants

        announce_ahead_minutes = self.announce_ahead_minutes

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "cron": cron,
                "duration_minutes": duration_minutes,
                "deals": deals,
            }
        )
        if guests is not UNSET:
            field_dict["guests"] = guests
        if max_entrants is not UNSET:
            field_dict["max_entrants"] = max_entrants
        if announce_ahead_minutes is not UNSET:
            field_dict["announce_ahead_minutes"] = announce_ahead_minutes

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        cron = d.pop("cron")

        duration_minutes = d.pop("duration_minutes")

        deals = d.pop("deals")

        guests = d.pop("guests", UNSET)

        def _parse_max_entrants(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_entrants = _parse_max_entrants(d.pop("max_entrants", UNSET))

        announce_ahead_minutes = d.pop("announce_ahead_minutes", UNSET)

        schedule_in = cls(
            name=name,
            cron=cron,
            duration_minutes=duration_minutes,
            deals=deals,
            guests=guests,
            max_entrants=max_entrants,
            announce_ahead_minutes=announce_ahead_minutes,
        )

        return schedule_in
