"""The one error hierarchy of the service: what a request can fail with, as the client sees
it (status, code, title). :mod:`api.core.problems` turns these into RFC 9457 responses."""

from __future__ import annotations

from typing import Any

from engine import EngineError, GameOver

RETRY_AFTER_SECONDS = 1


def problem_type(code: str) -> str:
    """The problem ``type`` URI of an error code."""
    return f"urn:foursquare:problem:{code}"


class ApiError(Exception):
    """An error the API reports to its client. Subclasses fix status, code and title."""

    status = 500
    code = "internal_error"
    title = "Internal server error"

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


class GameNotFound(ApiError):
    status, code, title = 404, "game_not_found", "Game not found"


class MissingToken(ApiError):
    status, code, title = 401, "missing_token", "Missing token"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class InvalidToken(ApiError):
    status, code, title = 403, "invalid_token", "Invalid token"


class VersionConflict(ApiError):
    status, code, title = 409, "version_conflict", "Version conflict"


class PlacementRefused(ApiError):
    """A placement the rules forbid (the code is the engine's)."""

    status, title = 422, "Illegal placement"

    def __init__(self, error: EngineError) -> None:
        super().__init__(error.message)
        self.code = error.code


class GameIsOver(ApiError):
    status, code, title = 409, "game_over", "Game over"


class PreconditionFailed(ApiError):
    status, code, title = 412, "precondition_failed", "Precondition failed"


class IdempotencyKeyReused(ApiError):
    status, code, title = 422, "idempotency_key_reused", "Idempotency key reused"


class RequestInProgress(ApiError):
    status, code, title = 409, "request_in_progress", "Request in progress"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class InvalidCursor(ApiError):
    status, code, title = 422, "invalid_cursor", "Invalid cursor"


class PlayerNotFound(ApiError):
    status, code, title = 404, "player_not_found", "Player not found"


class NameTaken(ApiError):
    status, code, title = 409, "name_taken", "Name taken"


class InvalidPlayerName(ApiError):
    status, code, title = 422, "invalid_player_name", "Invalid player name"


class PlayerNameMismatch(ApiError):
    status, code, title = 422, "player_name_mismatch", "Player name mismatch"


class ServiceUnavailable(ApiError):
    status, code, title = 503, "database_busy", "Database busy"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class HintsBusy(ApiError):
    status, code, title = 503, "hints_busy", "Hints busy"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class RateLimited(ApiError):
    """A rate limit is used up (see api/http/ratelimit.py); nothing was done."""

    status, code, title = 429, "rate_limited", "Too many requests"

    def __init__(self, detail: str, *, retry_after: int, headers: dict[str, str]) -> None:
        super().__init__(detail, headers={**headers, "Retry-After": str(retry_after)})


class EventStreamsFull(ApiError):
    """This process holds as many event streams as it may (``FOURSQUARE_EVENTS_MAX_STREAMS``):
    another replica, or this one a little later, takes the watcher."""

    status, code, title = 503, "event_streams_full", "Event streams full"

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class TooManyEventStreams(ApiError):
    """One client address holds ``FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT`` streams already."""

    status, code, title = 429, "too_many_event_streams", "Too many event streams"

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class InvalidLastEventId(ApiError):
    """A ``Last-Event-ID`` that is no placement number (0 to 40)."""

    status, code, title = 422, "invalid_last_event_id", "Invalid Last-Event-ID"


def engine_error(error: EngineError) -> ApiError:
    """The API error for an engine error raised by a placement."""
    if isinstance(error, GameOver):
        return GameIsOver(error.message)
    return PlacementRefused(error)


# ---------------------------------------------------------------- the daily challenge


class PlayerKeyRequired(ApiError):
    """A request only a registered player may make came without a player's key."""

    status, code, title = 401, "player_key_required", "Player key required"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class ChallengeAlreadyPlayed(ApiError):
    status, code, title = 409, "challenge_already_played", "Challenge already played"


class ChallengeClosed(ApiError):
    status, code, title = 409, "challenge_closed", "Challenge closed"


class ChallengeGamePrivate(ApiError):
    status, code, title = 403, "challenge_game_private", "Challenge game private"


class ChallengeHintsRefused(ApiError):
    status, code, title = 403, "challenge_no_hints", "No hints in the daily challenge"


class InvalidChallengeDate(ApiError):
    status, code, title = 422, "invalid_challenge_date", "Invalid challenge date"


class ChallengeNotOpen(ApiError):
    status, code, title = 404, "challenge_not_open", "Challenge not open yet"


class GameInProgress(ApiError):
    """A game that may not be analysed (yet): nothing about it is computed or shown."""

    status, code, title = 409, "game_in_progress", "Game in progress"


class ChallengeDayOpen(ApiError):
    """A daily-challenge game whose day has not closed: its analysis (the hindsight optimum
    above all) would hand the day's deal to players still to play it."""

    status, code, title = 409, "challenge_day_open", "Challenge day still open"


class AnalysisNotFound(ApiError):
    status, code, title = 404, "analysis_not_found", "Analysis not found"


class InvalidWindow(ApiError):
    """A leaderboard window that does not exist: a date on the all-time board, a day after
    today, or a window asked of a daily challenge's board."""

    status, code, title = 422, "invalid_window", "Invalid leaderboard window"


class NotOnBoard(ApiError):
    """``GET /leaderboard/around/{id}`` for a game that board does not list."""

    status, code, title = 409, "not_on_board", "Game not on this board"
