from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.passkey_sign_in_credential import PasskeySignInCredential


T = TypeVar("T", bound="PasskeySignIn")


@_attrs_define
class PasskeySignIn:
    """A passkey's answer to the sign-in options, and the name of the key it yields.

    Attributes:
        challenge_id (UUID):
        credential (PasskeySignInCredential): The `PublicKeyCredential` as JSON (`credential.toJSON()`).
        key_name (str | Unset): What the key is for, as the player will recognise it (a device). Default: 'passkey sign-
            in'.
    """

    challenge_id: UUID
    credential: PasskeySignInCredential
    key_name: str | Unset = "passkey sign-in"

    def to_dict(self) -> dict[str, Any]:
        challenge_id = str(self.challenge_id)

        credential = self.credential.to_dict()

        key_name = self.key_name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "challenge_id": challenge_id,
                "credential": credential,
            }
        )
        if key_name is not UNSET:
            field_dict["key_name"] = key_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.passkey_sign_in_credential import PasskeySignInCredential  # noqa: PLC0415

        d = dict(src_dict)
        challenge_id = UUID(d.pop("challenge_id"))

        credential = PasskeySignInCredential.from_dict(d.pop("credential"))

        key_name = d.pop("key_name", UNSET)

        passkey_sign_in = cls(
            challenge_id=challenge_id,
            credential=credential,
            key_name=key_name,
        )

        return passkey_sign_in
