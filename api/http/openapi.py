"""OpenAPI helpers shared by the routes."""

from __future__ import annotations

from typing import Any

from api.http.errors import PROBLEM_MEDIA_TYPE
from api.schemas import Problem

_DESCRIPTIONS = {
    400: "Malformed request.",
    401: "`missing_token`: no `Authorization: Bearer <token>` header.",
    403: "`invalid_token`: the token does not belong to this game.",
    404: "`game_not_found`: no such game (also for ids that are not UUIDs).",
    409: "`game_over`: the game has ended; `version_conflict`: another placement won the race; "
    "`request_in_progress`: a request with the same `Idempotency-Key` is still running.",
    412: "`precondition_failed`: `If-Match` does not match the game's current ETag.",
    413: "`payload_too_large`: the body is over the size limit.",
    422: "`invalid_request` (malformed input; see `errors`), a placement the rules forbid "
    "(`not_adjacent`, `grid_too_large`, `pile_full`), `idempotency_key_reused`, or "
    "`invalid_cursor` (a leaderboard cursor this service did not make).",
    503: "`database_busy`: the database is busy or unreachable; retry after `Retry-After` seconds.",
}


def problems(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry declaring problem+json errors for these statuses."""
    return {
        status: {
            "model": Problem,
            "description": _DESCRIPTIONS[status],
            "content": {PROBLEM_MEDIA_TYPE: {"schema": {"$ref": "#/components/schemas/Problem"}}},
        }
        for status in statuses
    }
