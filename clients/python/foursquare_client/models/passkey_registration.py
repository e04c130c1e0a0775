from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.passkey_registration_credential import PasskeyRegistrationCredential


T = TypeVar("T", bound="PasskeyRegistration")


@_attrs_define
class PasskeyRegistration:
    """A new passkey: the browser's answer to the registration options.

    Attributes:
        challenge_id (UUID):
        credential (PasskeyRegistrationCredential): The `PublicKeyCredential` as JSON (`credential.toJSON()`).
        name (str | Unset): What the key is for, as the player will recognise it (a device). Default: 'passkey'.
    """

    challenge_id: UUID
    credential: PasskeyRegistrationCredential
    name: str | Unset = "passkey"

    def to_dict(self) -> dict[str, Any]:
        challenge_id = str(self.challenge_id)

        credential = self.credential.to_dict()

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "challenge_id": challenge_id,
                "credential": credential,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.passkey_registration_credential import PasskeyRegistrationCredential  # noqa: PLC0415

        d = dict(src_dict)
        challenge_id = UUID(d.pop("challenge_id"))

        credential = PasskeyRegistrationCredential.from_dict(d.pop("credential"))

        name = d.pop("name", UNSET)

        passkey_registration = cls(
            challenge_id=challenge_id,
            credential=credential,
            name=name,
        )

        return passkey_registration
