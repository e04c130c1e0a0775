from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="NewKeyOut")


@_attrs_define
class NewKeyOut:
    """A new key of a player (its secret shown only in this response).

    Attributes:
        player (str):
        id (UUID):
        name (str):
        created_at (datetime.datetime):
        key (str): Send as `Authorization: Bearer <key>`. Shown only once.
    """

    player: str
    id: UUID
    name: str
    created_at: datetime.datetime
    key: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        player = self.player

        id = str(self.id)

        name = self.name

        created_at = self.created_at.isoformat()

        key = self.key

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "player": player,
                "id": id,
                "name": name,
                "created_at": created_at,
                "key": key,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player = d.pop("player")

        id = UUID(d.pop("id"))

        name = d.pop("name")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        key = d.pop("key")

        new_key_out = cls(
            player=player,
            id=id,
            name=name,
            created_at=created_at,
            key=key,
        )

        new_key_out.additional_properties = d
        return new_key_out

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
