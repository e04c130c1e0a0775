"""What a hint is refused with."""

from __future__ import annotations

from api.core.errors import RETRY_AFTER_SECONDS, ApiError, Example

_EXAMPLE_GAME_ID = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


class HintsBusy(ApiError):
    """Every hint worker is busy and the hint queue is full, or this client (its address or
    its token) holds its share of them already, or a worker stopped: retry after
    `Retry-After` seconds. Not counted against the client's rate limit."""

    status, code, title = 503, "hints_busy", "Hints busy"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class ChallengeHintsRefused(ApiError):
    """A daily challenge game is played without hints (the game is left unchanged)."""

    status, code, title = 403, "challenge_no_hints", "No hints in the daily challenge"
    example = Example(
        "the daily challenge is played without hints; this game was not changed",
        f"/games/{_EXAMPLE_GAME_ID}/hint",
    )
