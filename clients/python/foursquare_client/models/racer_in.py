from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RacerIn")


@_attrs_define
class RacerIn:
    """Who joins. The body may be omitted (an account's key names its player).

    Attributes:
        player (None | str | Unset): 3 to 24 ASCII letters, digits, '_' or '-', at least one of them a letter; the same
            rule (`422 invalid_player_name`) and `409 name_taken` checks as `POST /games` (omitted: the key's account, or a
            guest called `anonymous`). No two racers of a race have names that look alike.
    """

    player: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        player: None | str | Unset
        if isinstance(self.player, Unset):
            player = UNSET
        else:
            player = self.player

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if player is not UNSET:
            field_dict["player"] = player

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

        racer_in = cls(
            player=player,
        )

        return racer_in
