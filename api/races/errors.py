"""What the races refuse with."""

from __future__ import annotations

from api.core.errors import ApiError, Example

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
