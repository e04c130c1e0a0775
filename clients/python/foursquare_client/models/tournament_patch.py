from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="TournamentPatch")


@_attrs_define
class TournamentPatch:
    """Any of a new tournament's fields, while it is announced. Changing `deals` commits new
    deals (the commitments change).

        Attributes:
            name (None | str | Unset):
            starts_at (datetime.datetime | None | Unset):
            ends_at (datetime.datetime | None | Unset):
            deals (int | None | Unset):
            guests (bool | None | Unset):
            max_entrants (int | None | Unset): null: no cap.
    """

    name: None | str | Unset = UNSET
    starts_at: datetime.datetime | None | Unset = UNSET
    ends_at: datetime.datetime | None | Unset = UNSET
    deals: int | None | Unset = UNSET
    guests: bool | None | Unset = UNSET
    max_entrants: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        starts_at: None | str | Unset
        if isinstance(self.starts_at, Unset):
            starts_at = UNSET
        elif isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        ends_at: None | str | Unset
        if isinstance(self.ends_at, Unset):
            ends_at = UNSET
        elif isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        deals: int | None | Unset
        if isinstance(self.deals, Unset):
            deals = UNSET
        else:
            deals = self.deals

        guests: bool | None | Unset
        if isinstance(self.guests, Unset):
            guests = UNSET
        else:
            guests = self.guests

        max_entrants: int | None | Unset
        if isinstance(self.max_entrants, Unset):
            max_entrants = UNSET
        else:
            max_entrants = self.max_entrants

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if starts_at is not UNSET:
            field_dict["starts_at"] = starts_at
        if ends_at is not UNSET:
            field_dict["ends_at"] = ends_at
        if deals is not UNSET:
            field_dict["deals"] = deals
        if guests is not UNSET:
            field_dict["guests"] = guests
        if max_entrants is not UNSET:
            field_dict["max_entrants"] = max_entrants

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_starts_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)

                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        starts_at = _parse_starts_at(d.pop("starts_at", UNSET))

        def _parse_ends_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        ends_at = _parse_ends_at(d.pop("ends_at", UNSET))

        def _parse_deals(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        deals = _parse_deals(d.pop("deals", UNSET))

        def _parse_guests(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        guests = _parse_guests(d.pop("guests", UNSET))

        def _parse_max_entrants(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_entrants = _parse_max_entrants(d.pop("max_entrants", UNSET))

        tournament_patch = cls(
            name=name,
            starts_at=starts_at,
            ends_at=ends_at,
            deals=deals,
            guests=guests,
            max_entrants=max_entrants,
        )

        return tournament_patch
