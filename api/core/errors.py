"""The one error hierarchy of the service: what a request can fail with, as the client sees
it (status, code, title). :mod:`api.core.problems` turns these into RFC 9457 responses.

Here are the base, :class:`ApiError`, and the errors the core raises for any route (a
malformed request, a body too large, a busy database, a foreign cursor) or for the features
it serves alike: a player's name (:mod:`api.core.names`). Each feature's own errors are in
its ``errors`` module (``api/<feature>/errors.py``), on this base: a bearer credential's are
the accounts', a daily challenge's day the games'."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

RETRY_AFTER_SECONDS = 1

# A problem echoes at most this much of any one value of the request (a path in ``instance``,
# a header such as If-Match, a field's name, a name, an id, a date): a value of any length (a
# head may be 32 KiB) would otherwise come back whole, once or twice, making a refusal as large
# as the request. What is cut is marked, so that nobody takes it for the whole value.
MAX_ECHO_CHARS = 256
CUT_MARK = "…"


def echo(text: str) -> str:
    """``text`` as a problem may echo it: whole, or its first :data:`MAX_ECHO_CHARS`
    characters and :data:`CUT_MARK`. Every value of a request that a problem repeats goes
    through here (quoted values as ``f"{echo(value)!r}"``)."""
    return text if len(text) <= MAX_ECHO_CHARS else text[:MAX_ECHO_CHARS] + CUT_MARK


def problem_type(code: str) -> str:
    """The problem ``type`` URI of an error code."""
    return f"urn:foursquare:problem:{code}"


class Example(NamedTuple):
    """A problem an error answers with, as the OpenAPI document shows it."""

    detail: str
    instance: str


class ApiError(Exception):
    """An error the API reports to its client. Subclasses fix status, code and title; what
    the OpenAPI document says of them (:func:`api.core.openapi.problems`) is their docstring
    (what the error means, for API users), their ``example`` and the ``answer_headers`` they
    send."""

    status = 500
    code = "internal_error"
    title = "Internal server error"
    example: ClassVar[Example | None] = None

    @classmethod
    def example_detail(cls) -> str:
        """The detail of this error's example, for a route that shows it at its own path."""
        assert cls.example is not None
        return cls.example.detail

    answer_headers: ClassVar[tuple[str, ...]] = ()

    def __init__(
        self,
        detail: str,
        *,
        headers: dict[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = headers or {}
        self.extra = extra

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        """The codes this error answers with: its own, unless it passes on another's."""
        return (cls.code,)


class InvalidRequest(ApiError):
    """Malformed input: `errors` names each field that is wrong, and why."""

    # Answered by the request validation handler (api.core.problems), never raised.
    status, code, title = 422, "invalid_request", "Invalid request"


class PayloadTooLarge(ApiError):
    """The body is over the size limit."""

    # Answered by the body size limit (api.ops.observer), never raised.
    status, code, title = 413, "payload_too_large", "Payload too large"


class InvalidCursor(ApiError):
    """A cursor this service did not make for this listing: a cursor belongs to the listing
    it came from."""

    status, code, title = 422, "invalid_cursor", "Invalid cursor"
    example = Example(
        "not a cursor of this player's games listing; start again without one",
        "/players/ana/games",
    )


class InvalidPlayerName(ApiError):
    """Not 3 to 24 ASCII letters, digits, `_` or `-` with at least one letter, exactly as sent
    (an account's, a guest's or a racer's name alike; `detail` says the rule, and the ASCII
    spelling of a full-width name)."""

    status, code, title = 422, "invalid_player_name", "Invalid player name"
    example = Example(
        "'an\\u200ba' is not a valid player name: a name is 3 to 24 ASCII letters, digits, "
        "'_' or '-', at least one of them a letter",
        "/players",
    )


class ServiceUnavailable(ApiError):
    """The database is busy or unreachable: retry after `Retry-After` seconds."""

    status, code, title = 503, "database_busy", "Database busy"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})
