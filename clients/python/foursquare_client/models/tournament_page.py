from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.tournament_out import TournamentOut


T = TypeVar("T", bound="TournamentPage")


@_attrs_define
class TournamentPage:
    """
    Attributes:
        tournaments (list[TournamentOut]):
        next_ (None | str): The cursor of the next page (null: no more).
    """

    tournaments: list[TournamentOut]
    next_: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tournaments = []
        for tournaments_item_data in self.tournaments:
            tournaments_item = tournaments_item_data.to_dict()
            tournaments.append(tournaments_item)

        next_: None | str
        next_ = self.next_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tournaments": tournaments,
                "next": next_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.tournament_out import TournamentOut  # noqa: PLC0415

        d = dict(src_dict)
        tournaments = []
        _tournaments = d.pop("tournaments")
        for tournaments_item_data in _tournaments:
            tournaments_item = TournamentOut.from_dict(tournaments_item_data)

            tournaments.append(tournaments_item)

        def _parse_next_(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_ = _parse_next_(d.pop("next"))

        tournament_page = cls(
            tournaments=tournaments,
            next_=next_,
        )

        tournament_page.additional_properties = d
        return tournament_page

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
