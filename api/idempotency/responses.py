"""What the routes that accept an ``Idempotency-Key`` share: their answer as an HTTP response
(``Idempotent-Replayed: true`` on a replay) and the header's line in their documentation."""

from __future__ import annotations

from typing import Any

from fastapi import Response

from api.core.openapi import header
from api.idempotency.service import Answer

REPLAYED_HEADER: dict[str, Any] = {
    "Idempotent-Replayed": header("`true` when this is the stored response of an earlier request.")
}


def answer_response(answer: Answer, replayed: bool = False) -> Response:
    """``answer`` as sent (its body as it was rendered or replayed, untouched)."""
    headers = dict(answer.headers)
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(answer.body, answer.status, headers=headers, media_type=answer.media_type)
