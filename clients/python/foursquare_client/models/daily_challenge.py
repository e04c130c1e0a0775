from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.deck_reveal import DeckReveal


T = TypeVar("T", bound="DailyChallenge")


@_attrs_define
class DailyChallenge:
    """One UTC day's challenge: one deal for every player, committed to before anyone plays.

    Attributes:
        date (datetime.date):
        deck_commitment (str): SHA-256 of the day's salt and deck order (the recipe of a game's `deck_commitment`);
            every challenge game of the day carries it.
        played (int): Challenge games started this day (one per player).
        won (int): Of those, the games won.
        opens_at (datetime.datetime): 00:00 UTC of the day.
        closes_at (datetime.datetime): 00:00 UTC the next day: from then on the deal is revealed and the day's games
            take no more placements.
        closed (bool):
        reveal (DeckReveal | None): The day's deck order and salt, once the day has closed; null before.
        your_game_id (None | Unset | UUID): Asked with a player's key (`Authorization: Bearer <key>`): the id of their
            challenge game of this day if they have started it, else null; null without a key.
    """

    date: datetime.date
    deck_commitment: str
    played: int
    won: int
    opens_at: datetime.datetime
    closes_at: datetime.datetime
    closed: bool
    reveal: DeckReveal | None
    your_game_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415

        date = self.date.isoformat()

        deck_commitment = self.deck_commitment

        played = self.played

        won = self.won

        opens_at = self.opens_at.isoformat()

        closes_at = self.closes_at.isoformat()

        closed = self.closed

        reveal: dict[str, Any] | None
        if isinstance(self.reveal, DeckReveal):
            reveal = self.reveal.to_dict()
        else:
            reveal = self.reveal

        your_game_id: None | str | Unset
        if isinstance(self.your_game_id, Unset):
            your_game_id = UNSET
        elif isinstance(self.your_game_id, UUID):
            your_game_id = str(self.your_game_id)
        else:
            your_game_id = self.your_game_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "date": date,
                "deck_commitment": deck_commitment,
                "played": played,
                "won": won,
                "opens_at": opens_at,
                "closes_at": closes_at,
                "closed": closed,
                "reveal": reveal,
            }
        )
        if your_game_id is not UNSET:
            field_dict["your_game_id"] = your_game_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415

        d = dict(src_dict)
        date = datetime.date.fromisoformat(d.pop("date"))

        deck_commitment = d.pop("deck_commitment")

        played = d.pop("played")

        won = d.pop("won")

        opens_at = datetime.datetime.fromisoformat(d.pop("opens_at"))

        closes_at = datetime.datetime.fromisoformat(d.pop("closes_at"))

        closed = d.pop("closed")

        def _parse_reveal(data: object) -> DeckReveal | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reveal_type_0 = DeckReveal.from_dict(data)

                return reveal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(DeckReveal | None, data)

        reveal = _parse_reveal(d.pop("reveal"))

        def _parse_your_game_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                your_game_id_type_0 = UUID(data)

                return your_game_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        your_game_id = _parse_your_game_id(d.pop("your_game_id", UNSET))

        daily_challenge = cls(
            date=date,
            deck_commitment=deck_commitment,
            played=played,
            won=won,
            opens_at=opens_at,
            closes_at=closes_at,
            closed=closed,
            reveal=reveal,
            your_game_id=your_game_id,
        )

        daily_challenge.additional_properties = d
        return daily_challenge

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
