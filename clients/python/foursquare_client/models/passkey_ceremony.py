from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.passkey_ceremony_options import PasskeyCeremonyOptions


T = TypeVar("T", bound="PasskeyCeremony")


@_attrs_define
class PasskeyCeremony:
    """A passkey ceremony begun: pass `options` to `navigator.credentials.create()` (a
    registration) or `.get()` (a sign-in), and send the answer with `challenge_id` within five
    minutes.

        Attributes:
            challenge_id (UUID):
            options (PasskeyCeremonyOptions): WebAuthn `PublicKeyCredentialCreationOptions` or
                `PublicKeyCredentialRequestOptions`, as JSON (binary fields in base64url).
    """

    challenge_id: UUID
    options: PasskeyCeremonyOptions
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        challenge_id = str(self.challenge_id)

        options = self.options.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "challenge_id": challenge_id,
                "options": options,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.passkey_ceremony_options import PasskeyCeremonyOptions  # noqa: PLC0415

        d = dict(src_dict)
        challenge_id = UUID(d.pop("challenge_id"))

        options = PasskeyCeremonyOptions.from_dict(d.pop("options"))

        passkey_ceremony = cls(
            challenge_id=challenge_id,
            options=options,
        )

        passkey_ceremony.additional_properties = d
        return passkey_ceremony

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
