from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.race_create_level import RaceCreateLevel, check_race_create_level
from ..types import UNSET, Unset

T = TypeVar("T", bound="RaceCreate")


@_attrs_define
class RaceCreate:
    """A new race: its opener (its first racer) and its rules. Values are taken as JSON
    gives them: `true`, not `"yes"`; `8`, not `"8"`.

        Attributes:
            player (None | str | Unset): 3 to 24 ASCII letters, digits, '_' or '-', at least one of them a letter; the same
                rule (`422 invalid_player_name`) and `409 name_taken` checks as `POST /games` (omitted: the key's account, or a
                guest called `anonymous`). No two racers of a race have names that look alike.
            computer (bool | Unset): The computer player races too. Default: False.
            level (RaceCreateLevel | Unset): The computer racer's level: `beginner` (one step ahead, the placement that
                leaves the fewest face-down piles), `good` (the hint's search with a small budget) or `best` (the hint's search:
                a hint's strength). Default: 'best'.
            seats (int | Unset): Racers at most, the computer included. Default: 4.
            time_limit (int | Unset): Seconds from the start; unfinished games lose. Default: 300.
            public (bool | Unset): Listed among the open races (`GET /races/open`), joinable by anyone, while it is in its
                lobby with a free seat; `false`: joined by its link only. Default: False.
    """

    player: None | str | Unset = UNSET
    computer: bool | Unset = False
    level: RaceCreateLevel | Unset = "best"
    seats: int | Unset = 4
    time_limit: int | Unset = 300
    public: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        player: None | str | Unset
        if isinstance(self.player, Unset):
            player = UNSET
        else:
            player = self.player

        computer = self.computer

        level: str | Unset = UNSET
        if not isinstance(self.level, Unset):
            level = self.level

        seats = self.seats

        time_limit = self.time_limit

        public = self.public

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if player is not UNSET:
            field_dict["player"] = player
        if computer is not UNSET:
            field_dict["computer"] = computer
        if level is not UNSET:
            field_dict["level"] = level
        if seats is not UNSET:
            field_dict["seats"] = seats
        if time_limit is not UNSET:
            field_dict["time_limit"] = time_limit
        if public is not UNSET:
            field_dict["public"] = public

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_player(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        player = _parse_player(d.pop("player", UNSET))

        computer = d.pop("computer", UNSET)

        _level = d.pop("level", UNSET)
        level: RaceCreateLevel | Unset
        if isinstance(_level, Unset):
            level = UNSET
        else:
            level = check_race_create_level(_level)

        seats = d.pop("seats", UNSET)

        time_limit = d.pop("time_limit", UNSET)

        public = d.pop("public", UNSET)

        race_create = cls(
            player=player,
            computer=computer,
            level=level,
            seats=seats,
            time_limit=time_limit,
            public=public,
        )

        return race_create
