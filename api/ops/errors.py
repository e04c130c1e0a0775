"""What the operations package refuses with before a route runs: a CORS preflight, and the
rate limits (the sign-in failures' too, counted with them)."""

from __future__ import annotations

from api.core.errors import ApiError, Example


class CorsRefused(ApiError):
    """A CORS preflight asked for an origin, a method or a header this service does not allow
    (`FOURSQUARE_CORS_ORIGINS`): the browser will not send the request."""

    # Answered by the CORS layer (api.ops.cors) to an OPTIONS preflight, never raised.
    status, code, title = 400, "cors_refused", "CORS request refused"


class RateLimited(ApiError):
    """A rate limit of this client address or credential is used up and nothing was done:
    retry after `Retry-After` seconds (`RateLimit` says which limit)."""

    # Refused by api/ops/ratelimit.py before the route runs.
    status, code, title = 429, "rate_limited", "Too many requests"
    answer_headers = ("Retry-After", "RateLimit-Policy", "RateLimit")

    def __init__(self, detail: str, *, retry_after: int, headers: dict[str, str]) -> None:
        super().__init__(detail, headers={**headers, "Retry-After": str(retry_after)})


class SignInLimited(ApiError):
    """Too many failed sign-ins (recovery codes, passkeys) for this account or from this
    address: retry after `Retry-After` seconds. Nothing was tried."""

    status, code, title = 429, "sign_in_limited", "Too many failed sign-ins"
    answer_headers = ("Retry-After",)
    example = Example(
        "too many failed sign-ins for this account; try again in 600 seconds",
        "/sign-in/recovery-code",
    )

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})
