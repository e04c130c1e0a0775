from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PlayerCreate")


@_attrs_define
class PlayerCreate:
    """The name to register.

    Attributes:
        name (str): 3 to 24 ASCII letters, digits, '_' or '-', at least one of them a letter; one name with no other
            account's: not in another case, not a look-alike, not the same but for `_` and `-` (once `ana` is registered,
            nobody can register, or play as a guest under, `ANA`, `a-n-a` or `ana_`). Else `422 invalid_player_name`, `409
            name_taken`, or `409 name_reserved` for `computer`, `anonymous` and names that are one name with them.
        key_name (str | Unset): What the key is for, as the player will recognise it (a device). Default: 'first key'.
    """

    name: str
    key_name: str | Unset = "first key"

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        key_name = self.key_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
            }
        )
        if key_name is not UNSET:
            field_dict["key_name"] = key_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        key_name = d.pop("key_name", UNSET)

        player_create = cls(
            name=name,
            key_name=key_name,
        )

        return player_create
