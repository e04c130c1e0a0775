from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.race_created_level_type_0 import RaceCreatedLevelType0, check_race_created_level_type_0
from ..models.race_created_status import RaceCreatedStatus, check_race_created_status

if TYPE_CHECKING:
    from ..models.deck_reveal import DeckReveal
    from ..models.racer_event import RacerEvent
    from ..models.your_game import YourGame


T = TypeVar("T", bound="RaceCreated")


@_attrs_define
class RaceCreated:
    """A race just opened or joined.

    Attributes:
        id (UUID):
        status (RaceCreatedStatus):
        seats (int):
        time_limit (int): Seconds from the start.
        level (None | RaceCreatedLevelType0): The computer racer's level, if it races.
        deck_commitment (str): `sha256(salt + ':' + deck)` of the shared deal, as a game's; its deck and salt are in
            `reveal` once the race is over.
        public (bool): Listed among the open races while in its lobby.
        created_at (datetime.datetime):
        starts_at (datetime.datetime | None): Set by the start: the countdown's end.
        ends_at (datetime.datetime | None): When unfinished games end, lost.
        finished_at (datetime.datetime | None):
        next_race (None | UUID): The rematch, once someone asked for it.
        racers (list[RacerEvent]): In the race's ranking once it is finished (a win before every loss, the higher score
            first; among losses the game that went further; then the earlier end), else in the order they joined.
        you (int | None): Your racer's number, if the credential sent is one's.
        your_game (None | YourGame): Your game, once the race has started.
        reveal (DeckReveal | None): The shared deal, once the race is over.
        racer_token (None | str): A guest racer's credential (send it as `Authorization: Bearer <token>`); null for an
            account, which uses its key. Shown only once.
    """

    id: UUID
    status: RaceCreatedStatus
    seats: int
    time_limit: int
    level: None | RaceCreatedLevelType0
    deck_commitment: str
    public: bool
    created_at: datetime.datetime
    starts_at: datetime.datetime | None
    ends_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    next_race: None | UUID
    racers: list[RacerEvent]
    you: int | None
    your_game: None | YourGame
    reveal: DeckReveal | None
    racer_token: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415
        from ..models.your_game import YourGame  # noqa: PLC0415

        id = str(self.id)

        status: str = self.status

        seats = self.seats

        time_limit = self.time_limit

        level: None | str
        if isinstance(self.level, str):
            level = self.level
        else:
            level = self.level

        deck_commitment = self.deck_commitment

        public = self.public

        created_at = self.created_at.isoformat()

        starts_at: None | str
        if isinstance(self.starts_at, datetime.datetime):
            starts_at = self.starts_at.isoformat()
        else:
            starts_at = self.starts_at

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        next_race: None | str
        if isinstance(self.next_race, UUID):
            next_race = str(self.next_race)
        else:
            next_race = self.next_race

        racers = []
        for racers_item_data in self.racers:
            racers_item = racers_item_data.to_dict()
            racers.append(racers_item)

        you: int | None
        you = self.you

        your_game: dict[str, Any] | None
        if isinstance(self.your_game, YourGame):
            your_game = self.your_game.to_dict()
        else:
            your_game = self.your_game

        reveal: dict[str, Any] | None
        if isinstance(self.reveal, DeckReveal):
            reveal = self.reveal.to_dict()
        else:
            reveal = self.reveal

        racer_token: None | str
        racer_token = self.racer_token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "seats": seats,
                "time_limit": time_limit,
                "level": level,
                "deck_commitment": deck_commitment,
                "public": public,
                "created_at": created_at,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "finished_at": finished_at,
                "next_race": next_race,
                "racers": racers,
                "you": you,
                "your_game": your_game,
                "reveal": reveal,
                "racer_token": racer_token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deck_reveal import DeckReveal  # noqa: PLC0415
        from ..models.racer_event import RacerEvent  # noqa: PLC0415
        from ..models.your_game import YourGame  # noqa: PLC0415

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = check_race_created_status(d.pop("status"))

        seats = d.pop("seats")

        time_limit = d.pop("time_limit")

        def _parse_level(data: object) -> None | RaceCreatedLevelType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                level_type_0 = check_race_created_level_type_0(data)

                return level_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | RaceCreatedLevelType0, data)

        level = _parse_level(d.pop("level"))

        deck_commitment = d.pop("deck_commitment")

        public = d.pop("public")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_starts_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                starts_at_type_0 = datetime.datetime.fromisoformat(data)

                return starts_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        starts_at = _parse_starts_at(d.pop("starts_at"))

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))

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

        def _parse_next_race(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_race_type_0 = UUID(data)

                return next_race_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        next_race = _parse_next_race(d.pop("next_race"))

        racers = []
        _racers = d.pop("racers")
        for racers_item_data in _racers:
            racers_item = RacerEvent.from_dict(racers_item_data)

            racers.append(racers_item)

        def _parse_you(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        you = _parse_you(d.pop("you"))

        def _parse_your_game(data: object) -> None | YourGame:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                your_game_type_0 = YourGame.from_dict(data)

                return your_game_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | YourGame, data)

        your_game = _parse_your_game(d.pop("your_game"))

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

        def _parse_racer_token(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        racer_token = _parse_racer_token(d.pop("racer_token"))

        race_created = cls(
            id=id,
            status=status,
            seats=seats,
            time_limit=time_limit,
            level=level,
            deck_commitment=deck_commitment,
            public=public,
            created_at=created_at,
            starts_at=starts_at,
            ends_at=ends_at,
            finished_at=finished_at,
            next_race=next_race,
            racers=racers,
            you=you,
            your_game=your_game,
            reveal=reveal,
            racer_token=racer_token,
        )

        race_created.additional_properties = d
        return race_created

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
