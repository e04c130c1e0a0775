"""What a request with an ``Idempotency-Key`` is refused with."""

from __future__ import annotations

from api.core.errors import RETRY_AFTER_SECONDS, ApiError


class IdempotencyKeyReused(ApiError):
    """This `Idempotency-Key` was already used with a different request."""

    status, code, title = 422, "idempotency_key_reused", "Idempotency key reused"


class RequestInProgress(ApiError):
    """A request with the same `Idempotency-Key` is still running, or its process died
    holding the key: `Retry-After` is when the key can be taken over if it died (it answers
    a retry sooner if it finishes first)."""

    status, code, title = 409, "request_in_progress", "Request in progress"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(detail, headers={"Retry-After": str(max(1, retry_after))})
