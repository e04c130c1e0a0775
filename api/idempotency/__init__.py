"""Idempotent requests: a retried creation, placement, registration, key rotation or race
entry is answered once, its secret (if any) kept encrypted for the replays."""

from api.idempotency.errors import IdempotencyKeyReused, RequestInProgress
from api.idempotency.responses import REPLAYED_HEADER, answer_response
from api.idempotency.sealing import SECRET_NAME, ReplaySeal
from api.idempotency.service import (
    Answer,
    IdempotentRequests,
    credential_digest,
    fingerprint,
    purge,
    purge_periodically,
)
from api.idempotency.settings import IdempotencySettings

__all__ = [
    "REPLAYED_HEADER",
    "SECRET_NAME",
    "Answer",
    "IdempotencyKeyReused",
    "IdempotencySettings",
    "IdempotentRequests",
    "ReplaySeal",
    "RequestInProgress",
    "answer_response",
    "credential_digest",
    "fingerprint",
    "purge",
    "purge_periodically",
]
