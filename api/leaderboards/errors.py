"""What the leaderboards refuse with."""

from __future__ import annotations

from api.core.errors import ApiError, Example

_EXAMPLE_GAME_ID = "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80"


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
