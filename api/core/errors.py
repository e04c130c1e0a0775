"""The one error hierarchy of the service: what a request can fail with, as the client sees
it (status, code, title). :mod:`api.core.problems` turns these into RFC 9457 responses."""

from __future__ import annotations

from typing import Any, ClassVar, NamedTuple

from engine import EngineError, GameOver
from engine.errors import GridTooLarge, NotAdjacent, NotOrigin, PileFull

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


# The game that example problems name.
_EXAMPLE_GAME_ID = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


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


class CorsRefused(ApiError):
    """A CORS preflight asked for an origin, a method or a header this service does not allow
    (`FOURSQUARE_CORS_ORIGINS`): the browser will not send the request."""

    # Answered by the CORS layer (api.ops.cors) to an OPTIONS preflight, never raised.
    status, code, title = 400, "cors_refused", "CORS request refused"


class GameNotFound(ApiError):
    """No such game (also for ids that are not UUIDs)."""

    status, code, title = 404, "game_not_found", "Game not found"
    example = Example("there is no game 'nope'", "/games/nope")


class MissingToken(ApiError):
    """No `Authorization: Bearer <token>` header (the game's token, or the player's key)."""

    status, code, title = 401, "missing_token", "Missing token"
    example = Example("send your key as 'Authorization: Bearer <key>'", "/players/me")
    answer_headers = ("WWW-Authenticate",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class InvalidToken(ApiError):
    """The bearer is neither the game's token nor the current key of the player concerned."""

    status, code, title = 403, "invalid_token", "Invalid token"
    example = Example("this key is not a player's current key", "/players/me")


class VersionConflict(ApiError):
    """Another change to the game came first: a placement that won the race, or one made
    while a hint was computed."""

    status, code, title = 409, "version_conflict", "Version conflict"


class PlacementRefused(ApiError):
    """A placement the rules forbid: a first card anywhere but (0, 0), a new pile that
    touches none, a grid over 4 x 4, or a full pile."""

    status, title = 422, "Illegal placement"

    def __init__(self, error: EngineError) -> None:
        super().__init__(error.message)
        self.code = error.code

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        return (NotOrigin.code, NotAdjacent.code, GridTooLarge.code, PileFull.code)


class GameIsOver(ApiError):
    """The game has ended."""

    status, code, title = 409, "game_over", "Game over"


class PreconditionFailed(ApiError):
    """`If-Match` does not match the game's current ETag."""

    status, code, title = 412, "precondition_failed", "Precondition failed"


class IdempotencyKeyReused(ApiError):
    """This `Idempotency-Key` was already used with a different request."""

    status, code, title = 422, "idempotency_key_reused", "Idempotency key reused"


class RequestInProgress(ApiError):
    """A request with the same `Idempotency-Key` is still running, or its process died
    holding the key: `Retry-After` is when the key can be taken over if it died (it answers
    a retry sooner if it finishes first)."""

    status, code, title = 409, "request_in_progress", "Request in progress"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(detail, headers={"Retry-After": str(max(1, retry_after))})


class InvalidCursor(ApiError):
    """A cursor this service did not make for this listing: a cursor belongs to the listing
    it came from."""

    status, code, title = 422, "invalid_cursor", "Invalid cursor"
    example = Example(
        "not a cursor of this player's games listing; start again without one",
        "/players/ana/games",
    )


class PlayerNotFound(ApiError):
    """No player of that name (in any case or width)."""

    status, code, title = 404, "player_not_found", "Player not found"
    example = Example("there is no player 'bob'", "/players/bob")


class NameTaken(ApiError):
    """The name is a registered player's, or one name with it: the same in another case, a
    look-alike (`aIice`, `a1ice` for `alice`), or the same but for `_` and `-` (`alice_`,
    `a-l-i-c-e`) (`name_taken`). Or it is, or is one name with, a name nobody may take
    (`name_reserved`): `computer`, the computer player's, as an account or a guest's name, and
    `anonymous`, the guests' default, as an account's."""

    status, code, title = 409, "name_taken", "Name taken"
    example = Example("the name 'ana' is taken", "/players")

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        # Every route that may refuse a name as taken may refuse it as reserved: the codes are
        # declared together (api.core.openapi) wherever a route declares this error.
        return (NameTaken.code, NameReserved.code)


class NameReserved(NameTaken):
    """The name is, or is one name with, `computer` (the computer player's: nobody else plays
    under it) or, for an account, `anonymous` (every guest's). No key makes it usable."""

    code, title = "name_reserved", "Name reserved"
    example = Example("'C0mputer' is the computer player's name: choose another", "/players")

    @classmethod
    def codes(cls) -> tuple[str, ...]:
        return (cls.code,)


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


class PlayerNameMismatch(ApiError):
    """A `player` other than the name of the key's account."""

    status, code, title = 422, "player_name_mismatch", "Player name mismatch"
    example = Example(
        "the key belongs to 'ana', not 'bob': omit 'player' or send the account's name",
        "/games",
    )


class ServiceUnavailable(ApiError):
    """The database is busy or unreachable: retry after `Retry-After` seconds."""

    status, code, title = 503, "database_busy", "Database busy"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class HintsBusy(ApiError):
    """Every hint worker is busy and the hint queue is full, or this client (its address or
    its token) holds its share of them already, or a worker stopped: retry after
    `Retry-After` seconds. Not counted against the client's rate limit."""

    status, code, title = 503, "hints_busy", "Hints busy"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


class RateLimited(ApiError):
    """A rate limit of this client address or credential is used up and nothing was done:
    retry after `Retry-After` seconds (`RateLimit` says which limit)."""

    # Refused by api/ops/ratelimit.py before the route runs.
    status, code, title = 429, "rate_limited", "Too many requests"
    answer_headers = ("Retry-After", "RateLimit-Policy", "RateLimit")

    def __init__(self, detail: str, *, retry_after: int, headers: dict[str, str]) -> None:
        super().__init__(detail, headers={**headers, "Retry-After": str(retry_after)})


class EventStreamsFull(ApiError):
    """This replica holds as many event streams as it may (`FOURSQUARE_EVENTS_MAX_STREAMS`):
    another replica, or this one after `Retry-After` seconds, takes the watcher."""

    status, code, title = 503, "event_streams_full", "Event streams full"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class TooManyEventStreams(ApiError):
    """This client address holds `FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT` streams on this
    replica already: retry after `Retry-After` seconds."""

    status, code, title = 429, "too_many_event_streams", "Too many event streams"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class InvalidLastEventId(ApiError):
    """A `Last-Event-ID` that is no placement number (0 to 40)."""

    status, code, title = 422, "invalid_last_event_id", "Invalid Last-Event-ID"


def engine_error(error: EngineError) -> ApiError:
    """The API error for an engine error raised by a placement."""
    if isinstance(error, GameOver):
        return GameIsOver(error.message)
    return PlacementRefused(error)


# ---------------------------------------------------------------- the daily challenge


class PlayerKeyRequired(ApiError):
    """A request only a registered player may make (`challenge: daily`) came without a
    player's key."""

    status, code, title = 401, "player_key_required", "Player key required"
    example = Example(
        "the daily challenge is for registered players: send your key as "
        "'Authorization: Bearer <key>' (register with POST /players)",
        "/games",
    )
    answer_headers = ("WWW-Authenticate",)

    def __init__(self, detail: str) -> None:
        super().__init__(detail, headers={"WWW-Authenticate": 'Bearer realm="foursquare"'})


class ChallengeAlreadyPlayed(ApiError):
    """The key's player has already started today's daily challenge (one attempt per player
    per UTC day; `game_id` names it)."""

    status, code, title = 409, "challenge_already_played", "Challenge already played"
    example = Example(
        f"you have already played the daily challenge of 2026-12-01 (game {_EXAMPLE_GAME_ID}); "
        "the next one opens at 2026-12-02T00:00:00+00:00",
        "/games",
    )


class ChallengeClosed(ApiError):
    """A daily challenge game whose day has closed (its deal is public now) takes no more
    placements."""

    status, code, title = 409, "challenge_closed", "Challenge closed"
    example = Example(
        "the daily challenge of 2026-12-01 closed at 2026-12-02T00:00:00+00:00: its games "
        "take no more placements",
        f"/games/{_EXAMPLE_GAME_ID}/placements",
    )


class TimeUp(ApiError):
    """A game with a time limit (a race's) takes no placement once its time is up: the
    placement was not stored."""

    status, code, title = 409, "time_up", "Time up"
    example = Example(
        "this game's time was up at 2026-12-01T12:05:00+00:00 (its race's end): it takes no "
        "more placements",
        f"/games/{_EXAMPLE_GAME_ID}/placements",
    )


class ChallengeGamePrivate(ApiError):
    """A daily challenge game whose day has not closed is its player's only until then: read
    it with its token or its player's key."""

    status, code, title = 403, "challenge_game_private", "Challenge game private"
    example = Example(
        "this daily challenge game is visible to its player only until its day closes "
        "(2026-12-02T00:00:00+00:00); its player sends the game's token or their key as "
        "'Authorization: Bearer <token>'",
        f"/games/{_EXAMPLE_GAME_ID}",
    )


class ChallengeHintsRefused(ApiError):
    """A daily challenge game is played without hints (the game is left unchanged)."""

    status, code, title = 403, "challenge_no_hints", "No hints in the daily challenge"
    example = Example(
        "the daily challenge is played without hints; this game was not changed",
        f"/games/{_EXAMPLE_GAME_ID}/hint",
    )


class InvalidChallengeDate(ApiError):
    """Not a `YYYY-MM-DD` date from 2026-01-01 on (nor `today`)."""

    status, code, title = 422, "invalid_challenge_date", "Invalid challenge date"
    example = Example(
        "'2026-02-30' is not a day of the calendar: send 'today' or a date from 2026-01-01 on "
        "as YYYY-MM-DD",
        "/leaderboard",
    )


class ChallengeNotOpen(ApiError):
    """The day has not begun (UTC): nobody has played its challenge, and its commitment is not
    published yet."""

    status, code, title = 404, "challenge_not_open", "Challenge not open yet"
    example = Example(
        "the challenge of 2026-12-05 opens at 2026-12-05T00:00:00+00:00; today's is 2026-12-01",
        "/challenges/2026-12-05",
    )


class GameInProgress(ApiError):
    """The game has not ended: nothing about it is computed or shown."""

    status, code, title = 409, "game_in_progress", "Game in progress"
    example = Example(
        "the game is still in progress: it can be analysed once it has ended",
        f"/games/{_EXAMPLE_GAME_ID}/analysis",
    )


class ChallengeDayOpen(ApiError):
    """A daily-challenge game whose day has not closed: its analysis (the hindsight optimum
    above all) would hand the day's deal to players still to play it."""

    status, code, title = 409, "challenge_day_open", "Challenge day still open"
    example = Example(
        "a game of the 2026-12-01 daily challenge can be analysed once the day closes, at "
        "2026-12-02T00:00:00+00:00",
        f"/games/{_EXAMPLE_GAME_ID}/analysis",
    )


class AnalysisNotFound(ApiError):
    """Nobody asked for this game's analysis: POST it first."""

    status, code, title = 404, "analysis_not_found", "Analysis not found"
    example = Example(
        f"game {_EXAMPLE_GAME_ID} has no analysis: POST /games/{_EXAMPLE_GAME_ID}/analysis to "
        "ask for one",
        f"/games/{_EXAMPLE_GAME_ID}/analysis",
    )


class InvalidWindow(ApiError):
    """A leaderboard window that does not exist: a date on the all-time board, a day after
    today, or a window asked of a daily challenge's board."""

    status, code, title = 422, "invalid_window", "Invalid leaderboard window"
    example = Example(
        "the all-time board has no date: send period=day or period=week with date",
        "/leaderboard",
    )


class NotOnBoard(ApiError):
    """The game is not on that board: not won, assisted (without `include_assisted=true`), or
    not its player's best (with `per_player=best`)."""

    status, code, title = 409, "not_on_board", "Game not on this board"
    example = Example(
        f"game {_EXAMPLE_GAME_ID} is not on the week, per_player=best board: it is not its "
        "player's best game of that week board",
        f"/leaderboard/around/{_EXAMPLE_GAME_ID}",
    )


_EXAMPLE_RACE_ID = "5d0c2b1e-8a7f-4c3b-9e2d-1f0a6b5c4d3e"


class RaceNotFound(ApiError):
    """No race has this id."""

    status, code, title = 404, "race_not_found", "Race not found"
    example = Example(f"no race has the id {_EXAMPLE_RACE_ID!r}", f"/races/{_EXAMPLE_RACE_ID}")


class RaceNotOpen(ApiError):
    """The race cannot do that now: it is no longer in its lobby (or it is full) for a join or
    a start, or it has not finished for a rematch. Nothing was changed."""

    status, code, title = 409, "race_not_open", "Race not open"
    example = Example(
        "the race has started: racers join it while it is in its lobby",
        f"/races/{_EXAMPLE_RACE_ID}/racers",
    )


class RaceGamePrivate(ApiError):
    """A race's game is its racer's only until the race ends: no other racer may see the
    cards its player has drawn."""

    status, code, title = 403, "race_game_private", "Race game private"
    example = Example(
        "this race game is visible to its racer only until the race ends; its racer sends "
        "their racer token or key as 'Authorization: Bearer <token>'",
        f"/games/{_EXAMPLE_GAME_ID}",
    )


class RaceNotOver(ApiError):
    """A race's game is played without hints, and analysed only once its race has ended (the
    game is left unchanged)."""

    status, code, title = 409, "race_not_over", "Race not over"
    example = Example(
        "a race is played without hints; this game was not changed",
        f"/games/{_EXAMPLE_GAME_ID}/hint",
    )
