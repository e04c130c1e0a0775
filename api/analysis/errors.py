"""What a game's analysis is refused with."""

from __future__ import annotations

from api.core.errors import ApiError, Example

_EXAMPLE_GAME_ID = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


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
