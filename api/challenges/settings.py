"""The daily challenge's settings."""

from __future__ import annotations

from pydantic import Field, SecretStr

from api.core.settings import SettingsBase


class ChallengeSettings(SettingsBase):
    """What the daily challenge reads (the secret its deals are derived from)."""

    challenge_secret: SecretStr | None = Field(
        default=None,
        description="The daily challenge's deals are derived from it and the date. Unset: a "
        "random secret that migration 0010 stored in the database, shared by every process "
        "on it. Changing it changes the deal of the day in play: change it between days.",
    )
