from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tournament_out_status import TournamentOutStatus, check_tournament_out_status

if TYPE_CHECKING:
    from ..models.deck_reveal import DeckReveal
    from ..models.winner import Winner
    from ..models.your_entry import YourEntry


T = TypeVar("T", bound="TournamentOut")


@_attrs_define
class TournamentOut:
    """A tournament as anyone may see it; `you` for an entrant's credential.

    Attributes:
        id (UUID):
        name (str):
        status (TournamentOutStatus): `announced` (until `starts_at`), `running` (until `ends_at`), `ending` (its wins
            await the fair-play review), `finished` (final standings) or `cancelled`.
        starts_at (datetime.datetime):
        ends_at (datetime.datetime):
        deals (int):
        guests (bool):
        max_entrants (int | None):
        entrants (int):
        schedule_id (None | UUID):
        created_at (datetime.datetime):
        finished_at (datetime.datetime | None):
        commitments (list[str]): Each deal's `sha256(salt + ':' + deck)`, in deal order, as a game's `deck_commitment`:
            published from the announcement, checked against `reveal`.
        reveal (list[DeckReveal] | None): Each deal's deck and salt, once the tournament has ended.
        winners (list[Winner]): The first three, once it is finished.
        you (None | YourEntry): Your entry, if the credential sent is one's.
    """

    id: UUID
    name: str
    status: TournamentOutStatus
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    deals: int
    guests: bool
    max_entrants: int | None
    entrants: int
    schedule_id: None | UUID
    created_at: datetime.datetime
    finished_at: datetime.datetime | None
    commitments: list[str]
    reveal: list[DeckReveal] | None
    winners: list[Winner]
    you: None | YourEntry
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.your_entry import YourEntry  # noqa: PLC0415

        id = str(self.id)

        name = self.name

        status: str = self.status

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        deals = self.deals

        guests = self.guests

        max_entrants: int | None
        max_entrants = self.max_entrants

        entrants = self.entrants

        schedule_id: None | str
        if isinstance(self.schedule_id, UUID):
            schedule_id = str(self.schedule_id)
        else:
            schedule_id = self.schedule_id

        created_at = self.created_at.isoformat()

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        commitments = self.commitments

        reveal: list[dict[str, Any]] | None
        if isinstance(self.reveal, list):
            reveal = []
            for reveal_type_0_item_data in self.reveal:
                reveal_type_0_item = reveal_type_0_item_data.to_dict()
                reveal.append(reveal_type_0_item)

        else:
            reveal = self.reveal

        winners = []
        for winners_item_data in self.winners:
            winners_item = winners_item_data.to_dict()
            winners.append(winners_item)

        you: dict[str, Any] | None
        if isinstance(self.you, YourEntry):
            you = self.you.to_dict()
        else:
            you = self.you

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "status": status,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "deals": deals,
                "guests": guests,
                "max_entrants": max_entrants,
                "entrants": entrants,
                "schedule_id": schedule_id,
                "created_at": created_at,
                "finished_at": finished_at,
                "commitments": commitments,
                "reveal": reveal,
                "winners": winners,
                "you": you,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415
        from ..models.winner import Winner  # noqa: PLC0415
        from ..models.your_entry import YourEntry  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        status = check_tournament_out_status(d.pop("status"))

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        deals = d.pop("deals")

        guests = d.pop("guests")

        def _parse_max_entrants(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_entrants = _parse_max_entrants(d.pop("max_entrants"))

        entrants = d.pop("entrants")

        def _parse_schedule_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                schedule_id_type_0 = UUID(data)

                return schedule_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        schedule_id = _parse_schedule_id(d.pop("schedule_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        commitments = cast(list[str], d.pop("commitments"))

        def _parse_reveal(data: object) -> list[DeckReveal] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                reveal_type_0 = []
                _reveal_type_0 = data
                for reveal_type_0_item_data in _reveal_type_0:
                    reveal_type_0_item = DeckReveal.from_dict(reveal_type_0_item_data)

                    reveal_type_0.append(reveal_type_0_item)

                return reveal_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[DeckReveal] | None, data)

        reveal = _parse_reveal(d.pop("reveal"))

        winners = []
        _winners = d.pop("winners")
        for winners_item_data in _winners:
            winners_item = Winner.from_dict(winners_item_data)

            winners.append(winners_item)

        def _parse_you(data: object) -> None | YourEntry:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                you_type_0 = YourEntry.from_dict(data)

                return you_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | YourEntry, data)

        you = _parse_you(d.pop("you"))

        tournament_out = cls(
            id=id,
            name=name,
            status=status,
            starts_at=starts_at,
            ends_at=ends_at,
            deals=deals,
            guests=guests,
            max_entrants=max_entrants,
            entrants=entrants,
            schedule_id=schedule_id,
            created_at=created_at,
            finished_at=finished_at,
            commitments=commitments,
            reveal=reveal,
            winners=winners,
            you=you,
        )

        tournament_out.additional_properties = d
        return tournament_out

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
