"""The accounts' settings: where their passkeys may be used."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field, field_validator
from pydantic_settings import NoDecode

from api.core.settings import SettingsBase


class AccountSettings(SettingsBase):
    """What the accounts feature reads (its passkeys' relying party)."""

    passkey_rp_id: str = Field(
        default="localhost",
        description="The WebAuthn relying party id of passkeys: the site's domain name (never "
        "an IP address, which browsers refuse). The embedded default is reached as localhost.",
    )
    passkey_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="Origins whose pages may register and use passkeys (comma-separated, e.g. "
        "https://play.example.com). Empty: http://localhost on the port a request reached.",
    )

    @field_validator("passkey_origins", mode="before")
    @classmethod
    def _comma_separated_passkey_origins(cls, value: object) -> object:
        if isinstance(value, str):
            return [origin.strip() for origin in value.split(",") if origin.strip()]
        return value
