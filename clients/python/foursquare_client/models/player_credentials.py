from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.key_out import KeyOut
    from ..models.passkey_out import PasskeyOut


T = TypeVar("T", bound="PlayerCredentials")


@_attrs_define
class PlayerCredentials:
    """A player's keys and passkeys, and how many recovery codes are left.

    Attributes:
        player (str):
        keys (list[KeyOut]):
        passkeys (list[PasskeyOut]):
        recovery_codes_left (int):
    """

    player: str
    keys: list[KeyOut]
    passkeys: list[PasskeyOut]
    recovery_codes_left: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        player = self.player

        keys = []
        for keys_item_data in self.keys:
            keys_item = keys_item_data.to_dict()
            keys.append(keys_item)

        passkeys = []
        for passkeys_item_data in self.passkeys:
            passkeys_item = passkeys_item_data.to_dict()
            passkeys.append(passkeys_item)

        recovery_codes_left = self.recovery_codes_left

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "player": player,
                "keys": keys,
                "passkeys": passkeys,
                "recovery_codes_left": recovery_codes_left,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.key_out import KeyOut  # noqa: PLC0415
        from ..models.passkey_out import PasskeyOut  # noqa: PLC0415

        d = dict(src_dict)
        player = d.pop("player")

        keys = []
        _keys = d.pop("keys")
        for keys_item_data in _keys:
            keys_item = KeyOut.from_dict(keys_item_data)

            keys.append(keys_item)

        passkeys = []
        _passkeys = d.pop("passkeys")
        for passkeys_item_data in _passkeys:
            passkeys_item = PasskeyOut.from_dict(passkeys_item_data)

            passkeys.append(passkeys_item)

        recovery_codes_left = d.pop("recovery_codes_left")

        player_credentials = cls(
            player=player,
            keys=keys,
            passkeys=passkeys,
            recovery_codes_left=recovery_codes_left,
        )

        player_credentials.additional_properties = d
        return player_credentials

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
