from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_game_out import PlayerGameOut


T = TypeVar("T", bound="PlayerGames")


@_attrs_define
class PlayerGames:
    """A page of a player's games, newest first.

    Attributes:
        player (str):
        games (list[PlayerGameOut]):
        next_cursor (None | str): Pass as `cursor` (with the same `status`) for the next page; null at the end.
    """

    player: str
    games: list[PlayerGameOut]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        player = self.player

        games = []
        for games_item_data in self.games:
            games_item = games_item_data.to_dict()
            games.append(games_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "player": player,
                "games": games,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_game_out import PlayerGameOut  # noqa: PLC0415

        d = dict(src_dict)
        player = d.pop("player")

        games = []
        _games = d.pop("games")
        for games_item_data in _games:
            games_item = PlayerGameOut.from_dict(games_item_data)

            games.append(games_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        player_games = cls(
            player=player,
            games=games,
            next_cursor=next_cursor,
        )

        player_games.additional_properties = d
        return player_games

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
