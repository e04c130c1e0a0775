"""Cross-origin requests (``FOURSQUARE_CORS_ORIGINS``): Starlette's CORS layer, with its
refused preflights answered in the service's own voice.

Starlette decides a preflight (origin, method, headers) and answers the refused ones with
``400 text/plain "Disallowed CORS origin"``; a client reading the service's answers as
problem+json (with a ``code`` and the ``request_id`` to look the request up by) got the one
answer that was neither. Its decision is kept as it is, and only the refusal's body is the
service's: :class:`CorsRefused`, with what was refused.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from api.core.problems import problem_response
from api.ops.errors import CorsRefused
from api.ops.settings import OpsSettings

# What a page of another origin may send (and read), beside the simple headers: what the
# documentation invites a client to send (docs/api.md) and what it says answers carry.
ALLOW_HEADERS = (
    "Authorization",
    "Content-Type",
    "If-Match",
    "If-None-Match",
    "Idempotency-Key",
    # What an EventSource sends when it reconnects to an event stream.
    "Last-Event-ID",
    # A client's own id for its request, kept in the log and the answer (docs/api.md).
    "X-Request-ID",
)
EXPOSE_HEADERS = (
    "ETag",
    "Location",
    "Retry-After",
    "Idempotent-Replayed",
    "WWW-Authenticate",
    "RateLimit",
    "RateLimit-Policy",
    "X-Request-ID",
    "Server-Timing",
)


def cors_options(settings: OpsSettings) -> dict[str, Any] | None:
    """The CORS layer's options, or None when no origin is configured (no layer at all).
    Bearer tokens travel in a header, never a cookie: no credentials mode."""
    if not settings.cors_origins:
        return None
    return {
        "allow_origins": settings.cors_origins,
        "allow_methods": ["GET", "HEAD", "POST"],
        "allow_headers": list(ALLOW_HEADERS),
        "expose_headers": list(EXPOSE_HEADERS),
        "allow_credentials": False,
        "max_age": 600,
    }


class ProblemCORSMiddleware(CORSMiddleware):
    """Starlette's CORS layer whose refused preflights are ``400 cors_refused`` problems."""

    def preflight_response(self, request_headers: Headers) -> Response:
        decided = super().preflight_response(request_headers)
        if decided.status_code < 400:
            return decided
        # Starlette's words, "Disallowed CORS origin, headers": what was refused.
        refused = bytes(decided.body).decode().removeprefix("Disallowed CORS ").strip()
        detail = (
            f"this preflight asks for what CORS does not allow here ({refused}): allowed are "
            f"the origins the operator lists, the methods {', '.join(sorted(self.allow_methods))}"
            f" and the headers {', '.join(ALLOW_HEADERS)}"
        )
        headers = {
            name: value
            for name, value in decided.headers.items()
            if name.lower().startswith("access-control-") or name.lower() == "vary"
        }
        return problem_response(
            CorsRefused.status, CorsRefused.code, CorsRefused.title, detail, headers=headers
        )
