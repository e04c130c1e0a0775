from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="YourEntry")


@_attrs_define
class YourEntry:
    """Your own entry: what you play next.

    Attributes:
        number (int): The entrant's number, from 1 in joining order.
        name (str):
        account (bool): An account's entry (its player has a page).
        rank (int | None): Its rank in the standings: 1 + the entrants strictly ahead (equal score, cards and last
            finish share a rank).
        deals_played (int):
        score (int): The sum of its finished deals' scores (a lost deal 0); in the final standings, a win the fair-play
            review flagged scores 0.
        cards (int): Cards placed in its finished deals: the first tie-break.
        finished_at (datetime.datetime | None): When its last finished deal ended: the second tie-break (the earlier).
        left (bool): It left the tournament while it ran: it plays no more.
        place (int | None): Its final place, once the tournament is finished (null for an entrant who played no deal).
        games (list[UUID] | None): Its games, one per deal played, in deal order, once the tournament is finished (their
            replays); null before.
        next_deal (int | None): The deal `POST /tournaments/{id}/games` deals you next (null: all played, you left, or
            the tournament is not running).
        current_game (None | UUID): Your game of the deal in progress (only you see it).
    """

    number: int
    name: str
    account: bool
    rank: int | None
    deals_played: int
    score: int
    cards: int
    finished_at: datetime.datetime | None
    left: bool
    place: int | None
    games: list[UUID] | None
    next_deal: int | None
    current_game: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        name = self.name

        account = self.account

        rank: int | None
        rank = self.rank

        deals_played = self.deals_played

        score = self.score

        cards = self.cards

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        left = self.left

        place: int | None
        place = self.place

        games: list[str] | None
        if isinstance(self.games, list):
            games = []
            for games_type_0_item_data in self.games:
                games_type_0_item = str(games_type_0_item_data)
                games.append(games_type_0_item)

        else:
            games = self.games

        next_deal: int | None
        next_deal = self.next_deal

        current_game: None | str
        if isinstance(self.current_game, UUID):
            current_game = str(self.current_game)
        else:
            current_game = self.current_game

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "name": name,
                "account": account,
                "rank": rank,
                "deals_played": deals_played,
                "score": score,
                "cards": cards,
                "finished_at": finished_at,
                "left": left,
                "place": place,
                "games": games,
                "next_deal": next_deal,
                "current_game": current_game,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        number = d.pop("number")

        name = d.pop("name")

        account = d.pop("account")

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))

        deals_played = d.pop("deals_played")

        score = d.pop("score")

        cards = d.pop("cards")

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

        left = d.pop("left")

        def _parse_place(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        place = _parse_place(d.pop("place"))

        def _parse_games(data: object) -> list[UUID] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                games_type_0 = []
                _games_type_0 = data
                for games_type_0_item_data in _games_type_0:
                    games_type_0_item = UUID(games_type_0_item_data)

                    games_type_0.append(games_type_0_item)

                return games_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[UUID] | None, data)

        games = _parse_games(d.pop("games"))

        def _parse_next_deal(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        next_deal = _parse_next_deal(d.pop("next_deal"))

        def _parse_current_game(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                current_game_type_0 = UUID(data)

                return current_game_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        current_game = _parse_current_game(d.pop("current_game"))

        your_entry = cls(
            number=number,
            name=name,
            account=account,
            rank=rank,
            deals_played=deals_played,
            score=score,
            cards=cards,
            finished_at=finished_at,
            left=left,
            place=place,
            games=games,
            next_deal=next_deal,
            current_game=current_game,
        )

        your_entry.additional_properties = d
        return your_entry

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
