"""The request headers the game routes read, and their OpenAPI documentation.

These routes read their headers from ``request.headers`` and declare them in the OpenAPI
document themselves (``openapi_extra=documented(...)``) instead of taking them as FastAPI
header parameters, which FastAPI resolves and validates one by one on every request: measured
with callgrind on a placement, its three header parameters cost about 176,000 CPU
instructions, a third of everything a ``GET /healthz`` costs (see the README's Performance
section). Only ``Idempotency-Key`` has a format to check; a malformed one is the same ``422
invalid_request`` as any other malformed input.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from pydantic import StringConstraints, TypeAdapter, ValidationError

_ANY_STRING: TypeAdapter[str] = TypeAdapter(str)


@dataclass(frozen=True)
class HeaderParameter:
    """An optional request header: how to read it and how the OpenAPI document shows it."""

    name: str  # lower case, as the OpenAPI document and its links name it
    description: str
    value: TypeAdapter[str] = field(default=_ANY_STRING)  # its format, if it has one

    def read(self, request: Request) -> str | None:
        value = request.headers.get(self.name)
        if value is None or self.value is _ANY_STRING:
            return value
        try:
            return self.value.validate_python(value)
        except ValidationError as exc:
            raise RequestValidationError(
                [{**error, "loc": ("header", self.name)} for error in exc.errors()]
            ) from None

    def openapi(self) -> dict[str, Any]:
        title = "-".join(part.capitalize() for part in self.name.split("-"))
        return {
            "name": self.name,
            "in": "header",
            "required": False,
            "description": self.description,
            "schema": {**self.value.json_schema(), "title": title},
        }


def documented(*headers: HeaderParameter) -> dict[str, Any]:
    """The ``openapi_extra`` of a route that reads these headers."""
    return {"parameters": [header.openapi() for header in headers]}


AUTHORIZATION = HeaderParameter(
    "authorization", "`Bearer <token>`, the token returned when the game was created."
)
IF_MATCH = HeaderParameter(
    "if-match", "Place only if the game's ETag is still this one (else `412`)."
)
IF_NONE_MATCH = HeaderParameter(
    "if-none-match", "An ETag from an earlier read; `304` if unchanged."
)
IDEMPOTENCY_KEY = HeaderParameter(
    "idempotency-key",
    "Any unique string (e.g. a UUID) naming this request. A retry with the same key and body "
    "returns the original response with `Idempotent-Replayed: true` and changes nothing; the "
    "same key with another body is `422 idempotency_key_reused`; a retry while the first is "
    "still running is `409 request_in_progress`. Kept 24 hours.",
    TypeAdapter(
        Annotated[str, StringConstraints(min_length=1, max_length=255, pattern=r"^[\x21-\x7e]+$")]
    ),
)
