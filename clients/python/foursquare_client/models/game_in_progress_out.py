from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="GameInProgressOut")


@_attrs_define
class GameInProgressOut:
    """A game being played: what a spectator needs to choose one.

    Attributes:
        game_id (UUID):
        player (None | str):
        registered (bool): Whether an account plays it (its player has a page, `GET /players/{name}`); false for a
            guest's game.
        cards_placed (int):
        last_move_at (datetime.datetime | None): Its last placement's time; null before.
        created_at (datetime.datetime):
    """

    game_id: UUID
    player: None | str
    registered: bool
    cards_placed: int
    last_move_at: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        game_id = str(self.game_id)

        player: None | str
        player = self.player

        registered = self.registered

        cards_placed = self.cards_placed

        last_move_at: None | str
        if isinstance(self.last_move_at, datetime.datetime):
            last_move_at = self.last_move_at.isoformat()
        else:
            last_move_at = self.last_move_at

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "game_id": game_id,
                "player": player,
                "registered": registered,
                "cards_placed": cards_placed,
                "last_move_at": last_move_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        game_id = UUID(d.pop("game_id"))

        def _parse_player(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        player = _parse_player(d.pop("player"))

        registered = d.pop("registered")

        cards_placed = d.pop("cards_placed")

        def _parse_last_move_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_move_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_move_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_move_at = _parse_last_move_at(d.pop("last_move_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        game_in_progress_out = cls(
            game_id=game_id,
            player=player,
            registered=registered,
            cards_placed=cards_placed,
            last_move_at=last_move_at,
            created_at=created_at,
        )

        game_in_progress_out.additional_properties = d
        return game_in_progress_out

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
