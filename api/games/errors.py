"""What the games refuse with: a game that does not exist, a placement the rules or the game's
state refuse, and a game a viewer may not see yet (a daily challenge's, a race's). The
races' and challenges' refusals that the games make, or the features beside them (hints,
analyses) make of a race's game, are here: those features build on the games, not the other
way round."""

from __future__ import annotations

from api.core.errors import ApiError, Example
from engine import EngineError, GameOver
from engine.errors import GridTooLarge, NotAdjacent, NotOrigin, PileFull

_EXAMPLE_GAME_ID = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


class GameNotFound(ApiError):
    """No such game (also for ids that are not UUIDs)."""

    status, code, title = 404, "game_not_found", "Game not found"
    example = Example("there is no game 'nope'", "/games/nope")


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


def engine_error(error: EngineError) -> ApiError:
    """The API error for an engine error raised by a placement."""
    if isinstance(error, GameOver):
        return GameIsOver(error.message)
    return PlacementRefused(error)


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


class RaceGamePrivate(ApiError):
    """A race's or a tournament's game is its player's only until the race or the tournament
    ends: no other racer or entrant may see the cards its player has drawn."""

    status, code, title = 403, "race_game_private", "Race game private"
    example = Example(
        "this game of a race or a tournament is visible to its player only until the race or "
        "the tournament ends; its player sends their racer or entrant token, or their key, as "
        "'Authorization: Bearer <token>'",
        f"/games/{_EXAMPLE_GAME_ID}",
    )


class RaceNotOver(ApiError):
    """A race's or a tournament's game is played without hints, and analysed only once the
    race or the tournament has ended (the game is left unchanged)."""

    status, code, title = 409, "race_not_over", "Race not over"
    example = Example(
        "a race is played without hints; this game was not changed",
        f"/games/{_EXAMPLE_GAME_ID}/hint",
    )
