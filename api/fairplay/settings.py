"""The fair-play review's settings (docs/fairplay.md): the moderators' credentials, when an
account is marked, and the process that computes reviews."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator

from api.core.settings import SettingsBase


class FairPlaySettings(SettingsBase):
    """What the fair-play feature reads."""

    operator_keys: SecretStr | None = Field(
        default=None,
        description="Operator credentials for the moderators' endpoints (/moderation), as "
        "comma-separated `name:key` pairs; the name is stored with each decision. No "
        "default: unset, nobody can moderate (every key gets 403). Keys of at least 32 "
        "characters (e.g. `python3 -c 'import secrets; print(secrets.token_urlsafe(32))'`).",
    )
    fairplay_mark_after: int = Field(
        default=3,
        ge=1,
        description="Flagged wins (not cleared by a moderator) that mark an account: all its "
        "games then leave the public boards until a moderator clears it.",
    )
    fairplay_worker: bool = Field(
        default=True,
        description="Whether this server process computes fair-play reviews (in a worker "
        "process of its own). Off: it only queues them.",
    )
    fairplay_poll_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often each server process looks for a review to claim (a win on the "
        "same process wakes it at once).",
    )
    fairplay_heartbeat_seconds: float = Field(
        default=5.0, gt=0, description="How often a process computing a review renews its claim."
    )
    fairplay_stale_seconds: float = Field(
        default=30.0,
        gt=0,
        description="A review claim not renewed for this long is taken over by another process "
        "(its process died). Keep it several heartbeats long.",
    )

    @field_validator("operator_keys")
    @classmethod
    def _operator_keys(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        for pair in value.get_secret_value().split(","):
            name, colon, key = pair.strip().partition(":")
            if not colon or not name.strip() or len(key.strip()) < 32 or len(name.strip()) > 32:
                raise ValueError(
                    "FOURSQUARE_OPERATOR_KEYS takes comma-separated name:key pairs, each name "
                    "1-32 characters and each key at least 32"
                )
        return value
