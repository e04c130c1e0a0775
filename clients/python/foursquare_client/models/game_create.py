from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="GameCreate")


@_attrs_define
class GameCreate:
    """Who is playing. The body may be omitted altogether.

    Attributes:
        player (str | Unset): 3 to 24 ASCII letters, digits, '_' or '-', at least one of them a letter, as for an
            account: one rule for every name, and one refusal (`422 invalid_player_name`). A registered player's name, or
            one that looks like it (in any case, or with look-alike letters: `aIice` for `alice`), needs their key (`409
            name_taken` without it); with a key, omit it or give the key's name (in any case). Default: 'anonymous'.
        challenge (Literal['daily'] | None | Unset): `daily`: play today's daily challenge, the deal every player gets
            today (needs a player's key; one attempt per player per UTC day). Omitted: a fresh deal.
    """

    player: str | Unset = "anonymous"
    challenge: Literal["daily"] | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        player = self.player

        challenge: Literal["daily"] | None | Unset
        if isinstance(self.challenge, Unset):
            challenge = UNSET
        else:
            challenge = self.challenge

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if player is not UNSET:
            field_dict["player"] = player
        if challenge is not UNSET:
            field_dict["challenge"] = challenge

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player", UNSET)

        def _parse_challenge(data: object) -> Literal["daily"] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            challenge_type_0 = cast(Literal["daily"], data)
            if challenge_type_0 != "daily":
                raise ValueError(f"challenge_type_0 must match const 'daily', got '{challenge_type_0}'")
            return challenge_type_0
            return cast(Literal["daily"] | None | Unset, data)

        challenge = _parse_challenge(d.pop("challenge", UNSET))

        game_create = cls(
            player=player,
            challenge=challenge,
        )

        return game_create
