from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.player_stats_out import PlayerStatsOut


T = TypeVar("T", bound="PlayerCreated")


@_attrs_define
class PlayerCreated:
    """A new player and their secret key (shown only in this response).

    Attributes:
        name (str):
        created_at (datetime.datetime):
        stats (PlayerStatsOut): A player's all-time figures, updated in the transaction that starts or ends a game.
        key (str): Send as `Authorization: Bearer <key>` to start games as this player, to place cards and ask hints in
            them, and to rotate the key. Shown only once.
    """

    name: str
    created_at: datetime.datetime
    stats: PlayerStatsOut
    key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        created_at = self.created_at.isoformat()

        stats = self.stats.to_dict()

        key = self.key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "created_at": created_at,
                "stats": stats,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.player_stats_out import PlayerStatsOut  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        stats = PlayerStatsOut.from_dict(d.pop("stats"))

        key = d.pop("key")

        player_created = cls(
            name=name,
            created_at=created_at,
            stats=stats,
            key=key,
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
