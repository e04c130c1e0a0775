"""The idempotent requests' settings."""

from __future__ import annotations

from pydantic import Field, SecretStr

from api.core.settings import SettingsBase


class IdempotencySettings(SettingsBase):
    """What the idempotent requests read: the replays' secret, and when a claim is stale."""

    replay_secret: SecretStr | None = Field(
        default=None,
        description="Encrypts the secrets (a game's or racer's token, a player's key) kept "
        "for the replays of Idempotency-Key requests. Unset: a random secret that migration "
        "0020 stored in the database, shared by every process on it. Changing it makes the "
        "replays stored before unreadable: their retries are then served as new requests.",
    )
    idempotency_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="An Idempotency-Key claim left unanswered this long (its process died "
        "mid-request) is taken over by the next retry; until then retries get 409 "
        "request_in_progress. Keep it well above the slowest request.",
    )
