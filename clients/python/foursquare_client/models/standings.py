from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.standings_status import StandingsStatus, check_standings_status

if TYPE_CHECKING:
    from ..models.entry import Entry


T = TypeVar("T", bound="Standings")


@_attrs_define
class Standings:
    """
    Attributes:
        status (StandingsStatus): `provisional` (every finished deal counts) until the final standings (only wins the
            fair-play review found clean count).
        entries (list[Entry]):
        next_ (None | str): The cursor of the next page (null: no more).
        total (int): Entrants in all.
    """

    status: StandingsStatus
    entries: list[Entry]
    next_: None | str
    total: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status: str = self.status

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        next_: None | str
        next_ = self.next_

        total = self.total

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "entries": entries,
                "next": next_,
                "total": total,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.entry import Entry  # noqa: PLC0415

        d = dict(src_dict)
        status = check_standings_status(d.pop("status"))

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = Entry.from_dict(entries_item_data)

            entries.append(entries_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        total = d.pop("total")

        standings = cls(
            status=status,
            entries=entries,
            next_=next_,
            total=total,
        )

        standings.additional_properties = d
        return standings

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
