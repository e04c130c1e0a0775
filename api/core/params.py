"""Typed request parameters that several features' routes share: paging, credentials,
conditional requests and idempotency keys."""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import Depends, Header, Query, Request
from fastapi.security import HTTPBearer
from pydantic import AfterValidator, StringConstraints, WithJsonSchema

# The two parameters of every paged listing (the leaderboards, a player's games).
PageLimit = Annotated[int, Query(ge=1, le=100, description="Entries per page.")]
PageCursor = Annotated[
    str | None, Query(max_length=300, description="`next_cursor` of the previous page.")
]


class BearerSecret(HTTPBearer):
    """A bearer credential as its secret string (None when absent or not a bearer): FastAPI's
    ``HTTPBearer``, so the OpenAPI document declares the security scheme ("Authorize" in
    /docs, generated clients), in one dependency rather than two (it is resolved on every
    request, and each level of dependencies costs as much as a small route)."""

    async def __call__(self, request: Request) -> str | None:  # type: ignore[override]
        credentials = await super().__call__(request)
        return credentials.credentials if credentials is not None else None


# A missing or malformed header is left to the service, which answers 401 missing_token.
game_token = BearerSecret(
    scheme_name="GameToken",
    description="The `token` returned when the game was created, or the `key` of the "
    "registered player whose game it is.",
    auto_error=False,
)
player_key = BearerSecret(
    scheme_name="PlayerKey",
    description="A registered player's `key` (from `POST /players` or a rotation).",
    auto_error=False,
)

TokenDep = Annotated[str | None, Depends(game_token)]
PlayerKeyDep = Annotated[str | None, Depends(player_key)]

IfMatch = Annotated[
    str | None,
    Header(description="Place only if the game's ETag is still this one (else `412`)."),
]
IfNoneMatch = Annotated[
    str | None, Header(description="An ETag from an earlier read; `304` if unchanged.")
]

_KEY = StringConstraints(min_length=1, max_length=255, pattern=r"^[\x21-\x7e]+$")


# A UUID of version 4 (random) and the RFC 4122 variant, in its canonical form.
UUID4_PATTERN = (
    r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$"
)


def _uuid4(value: str) -> str:
    # The document's pattern with JSON Schema's meaning (a search: "$" may precede a final
    # newline, which no HTTP header value can hold anyway).
    if re.search(UUID4_PATTERN, value) is None:
        raise ValueError(
            "a game creation's Idempotency-Key must be a random UUID (version 4), so that "
            "nobody else can guess it and be replayed the game and its token"
        )
    return value


PlacementKey = Annotated[
    Annotated[str, _KEY] | None,
    Header(
        description="Any unique string of 1-255 visible ASCII characters (a UUID is best) "
        "naming this request. A retry with the same key and body returns the original "
        "response with `Idempotent-Replayed: true` and changes nothing; the same key with "
        "another body is `422 idempotency_key_reused`; a retry while the first is still "
        "running is `409 request_in_progress`. Kept 24 hours.",
    ),
]
CreationKey = Annotated[
    Annotated[str, AfterValidator(_uuid4)] | None,
    # An absent header is None; a sent one is never null, so the document says just this.
    WithJsonSchema({"type": "string", "format": "uuid", "pattern": UUID4_PATTERN}),
    Header(
        description="A random UUID (version 4) naming this request; anything else is "
        "`422 invalid_request`. A retry with the same key and body returns the original "
        "response, token included, with `Idempotent-Replayed: true`; the same key with "
        "another body is `422 idempotency_key_reused`; a retry while the first is still "
        "running is `409 request_in_progress`. Kept 24 hours.",
    ),
]
