from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="PlayerCreate")


@_attrs_define
class PlayerCreate:
    """The name to register.

    Attributes:
        name (str): 3 to 24 ASCII letters, digits, `_` or `-`, unique ignoring case (and width: once `ana` is
            registered, no guest can play as `ANA` or in full-width letters). Else `422 invalid_player_name` or `409
            name_taken`.
    """

    name: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        player_create = cls(
            name=name,
        )

        return player_create
