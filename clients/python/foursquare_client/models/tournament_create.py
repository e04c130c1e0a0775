from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TournamentCreate")


@_attrs_define
class TournamentCreate:
    """A new tournament (an operator's). A start in the past starts it at once.

    Attributes:
        name (str):
        starts_at (datetime.datetime): When its deals may be played (RFC 3339).
        ends_at (datetime.datetime): When it ends: after `starts_at` (`422 invalid_tournament` otherwise).
        deals (int): How many deals each entrant plays, in order, each once.
        guests (bool | Unset): Guests may enter (by name). Default: False.
        max_entrants (int | None | Unset): A cap on entrants (null: none).
    """

    name: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    deals: int
    guests: bool | Unset = False
    max_entrants: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        deals = self.deals

        guests = self.guests

        max_entrants: int | None | Unset
        if isinstance(self.max_entrants, Unset):
            max_entrants = UNSET
        else:
            max_entrants = self.max_entrants

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "deals": deals,
            }
        )
        if guests is not UNSET:
            field_dict["guests"] = guests
        if max_entrants is not UNSET:
            field_dict["max_entrants"] = max_entrants

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        deals = d.pop("deals")

        guests = d.pop("guests", UNSET)

        def _parse_max_entrants(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_entrants = _parse_max_entrants(d.pop("max_entrants", UNSET))

        tournament_create = cls(
            name=name,
            starts_at=starts_at,
            ends_at=ends_at,
            deals=deals,
            guests=guests,
            max_entrants=max_entrants,
        )

        return tournament_create
