"""OpenAPI helpers shared by the routes."""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from api.core.errors import ApiError, problem_type
from api.core.problems import PROBLEM_MEDIA_TYPE
from api.core.schemas import Problem

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
    429: "`rate_limited`: a rate limit of this client address or credential is used up; "
    "nothing was done. Retry after `Retry-After` seconds (`RateLimit` says which limit).",
    503: "`database_busy`: the database is busy or unreachable; `hints_busy` (hints only): "
    "every hint worker is busy and the hint queue is full, or a worker stopped; retry after "
    "`Retry-After` seconds.",
}


_RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before retrying.",
        "schema": {"type": "integer"},
    }
}
_HEADERS: dict[int, dict[str, Any]] = {
    401: {
        "WWW-Authenticate": {
            "description": '`Bearer realm="foursquare"`',
            "schema": {"type": "string"},
        }
    },
    409: {
        "Retry-After": {
            "description": "With `request_in_progress`: seconds to wait before retrying.",
            "schema": {"type": "integer"},
        }
    },
    429: {
        **_RETRY_AFTER,
        "RateLimit-Policy": {
            "description": "The limits counted (draft-ietf-httpapi-ratelimit-headers): "
            '`"place-credential";q=120;w=60`, one item per limit. Sent on every answer of a '
            "limited route.",
            "schema": {"type": "string"},
        },
        "RateLimit": {
            "description": 'What is left of each: `"place-credential";r=0;t=12` (requests '
            "left, seconds until one frees up).",
            "schema": {"type": "string"},
        },
    },
    503: _RETRY_AFTER,
}


def problem_example(error: type[ApiError], detail: str, instance: str) -> dict[str, Any]:
    """An OpenAPI example of the problem an error class answers with."""
    return {
        "summary": error.title,
        "value": {
            "type": problem_type(error.code),
            "title": error.title,
            "status": error.status,
            "detail": detail,
            "code": error.code,
            "instance": instance,
        },
    }


def problems(
    *statuses: int,
    descriptions: dict[int, str] | None = None,
    examples: dict[int, dict[str, dict[str, Any]]] | None = None,
) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` entry declaring problem+json errors for these statuses;
    ``descriptions`` replaces the shared description of a status on routes with other codes,
    and ``examples`` (by status, then name; see :func:`problem_example`) shows them."""
    described = _DESCRIPTIONS | (descriptions or {})
    shown = examples or {}
    return {
        status: {
            "model": Problem,
            "description": described[status],
            "content": {
                PROBLEM_MEDIA_TYPE: {
                    "schema": {"$ref": "#/components/schemas/Problem"},
                    **({"examples": shown[status]} if status in shown else {}),
                }
            },
            **({"headers": _HEADERS[status]} if status in _HEADERS else {}),
        }
        for status in statuses
    }


def install_openapi(app: FastAPI) -> None:
    """The app's OpenAPI document without the responses that never happen: FastAPI lists a
    ``422 HTTPValidationError`` on every route with parameters, but this service answers
    malformed input with its own problem (declared by the routes where it can happen)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title,
                version=app.version,
                summary=app.summary,
                description=app.description,
                routes=app.routes,
            )
            for item in document.get("paths", {}).values():
                for operation in item.values():
                    responses = operation.get("responses", {})
                    if "HTTPValidationError" in json.dumps(responses.get("422", {})):
                        del responses["422"]
            schemas = document.get("components", {}).get("schemas", {})
            for unused in ("HTTPValidationError", "ValidationError"):
                if unused not in json.dumps(document["paths"]):
                    schemas.pop(unused, None)
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
