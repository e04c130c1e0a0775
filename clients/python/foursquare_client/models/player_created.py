from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.player_stats_out import PlayerStatsOut
    from ..models.trophies_out import TrophiesOut


T = TypeVar("T", bound="PlayerCreated")


@_attrs_define
class PlayerCreated:
    """A new player, their secret key and their recovery codes (shown only in this
    response).

        Attributes:
            name (str):
            created_at (datetime.datetime):
            stats (PlayerStatsOut): A player's all-time figures, updated in the transaction that starts or ends a game.
            key (str): Send as `Authorization: Bearer <key>` to start games as this player, to place cards and ask hints in
                them, and to rotate the key. Shown only once.
            recovery_codes (list[str]): Ten one-time codes: each gives a new key on a device that lost its own (`POST /sign-
                in/recovery-code`). Shown only once: keep them somewhere safe.
            marked (bool | Unset): Marked by the fair-play review (several of its wins followed the computer player's
                choices too closely): all its games are off the public boards until a moderator clears it (docs/fairplay.md).
                Default: False.
            tournaments (TrophiesOut | Unset): A player's tournament places: finished tournaments they played a deal of, and
                how
                many they finished first, second and third (`GET /players/{name}/tournaments`).
    """

    name: str
    created_at: datetime.datetime
    stats: PlayerStatsOut
    key: str
    recovery_codes: list[str]
    marked: bool | Unset = False
    tournaments: TrophiesOut | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        created_at = self.created_at.isoformat()

        stats = self.stats.to_dict()

        key = self.key

        recovery_codes = self.recovery_codes

        marked = self.marked

        tournaments: dict[str, Any] | Unset = UNSET
        if not isinstance(self.tournaments, Unset):
            tournaments = self.tournaments.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "created_at": created_at,
                "stats": stats,
                "key": key,
                "recovery_codes": recovery_codes,
            }
        )
        if marked is not UNSET:
            field_dict["marked"] = marked
        if tournaments is not UNSET:
            field_dict["tournaments"] = tournaments

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_stats_out import PlayerStatsOut  # noqa: PLC0415
        from ..models.trophies_out import TrophiesOut  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        stats = PlayerStatsOut.from_dict(d.pop("stats"))

        key = d.pop("key")

        recovery_codes = cast(list[str], d.pop("recovery_codes"))

        marked = d.pop("marked", UNSET)

        _tournaments = d.pop("tournaments", UNSET)
        tournaments: TrophiesOut | Unset
        if isinstance(_tournaments, Unset):
            tournaments = UNSET
        else:
            tournaments = TrophiesOut.from_dict(_tournaments)

        player_created = cls(
            name=name,
            created_at=created_at,
            stats=stats,
            key=key,
            recovery_codes=recovery_codes,
            marked=marked,
            tournaments=tournaments,
        )

        player_created.additional_properties = d
        return player_created

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
