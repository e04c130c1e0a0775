from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.account import Account
    from ..models.review import Review


T = TypeVar("T", bound="Queue")


@_attrs_define
class Queue:
    """What waits for a moderator, oldest first.

    Attributes:
        games (list[Review]): Flagged games no moderator has decided on.
        players (list[Account]): Marked accounts no moderator has decided on.
        stuck (list[Review]): Reviews that could not be computed after every attempt (their games stay off the boards):
            the logs say why.
    """

    games: list[Review]
    players: list[Account]
    stuck: list[Review]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        stuck = []
        for stuck_item_data in self.stuck:
            stuck_item = stuck_item_data.to_dict()
            stuck.append(stuck_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "games": games,
                "players": players,
                "stuck": stuck,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.account import Account  # noqa: PLC0415
        from ..models.review import Review  # noqa: PLC0415

        d = dict(src_dict)
        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = Review.from_dict(games_item_data)

            games.append(games_item)

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = Account.from_dict(players_item_data)

            players.append(players_item)

        stuck = []
        _stuck = d.pop("stuck")
        for stuck_item_data in _stuck:
            stuck_item = Review.from_dict(stuck_item_data)

            stuck.append(stuck_item)

        queue = cls(
            games=games,
            players=players,
            stuck=stuck,
        )

        queue.additional_properties = d
        return queue

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
