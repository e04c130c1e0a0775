from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="RecoveryCodeSignIn")


@_attrs_define
class RecoveryCodeSignIn:
    """A recovery code of the named player, spent for a new key.

    Attributes:
        name (str):
        code (str): Case, spaces and dashes do not matter.
        key_name (str | Unset): What the key is for, as the player will recognise it (a device). Default: 'recovered
            key'.
    """

    name: str
    code: str
    key_name: str | Unset = "recovered key"

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        code = self.code

        key_name = self.key_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "code": code,
            }
        )
        if key_name is not UNSET:
            field_dict["key_name"] = key_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        code = d.pop("code")

        key_name = d.pop("key_name", UNSET)

        recovery_code_sign_in = cls(
            name=name,
            code=code,
            key_name=key_name,
        )

        return recovery_code_sign_in
