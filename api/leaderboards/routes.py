"""The leaderboard of won games: all time, by day and by week, every game or each player's
best, and a game's place on it."""

from __future__ import annotations

from datetime import date
from typing import Annotated, Literal, Protocol

from fastapi import APIRouter, Depends, Query, Request, Response

from api.core.errors import Example, InvalidCursor, InvalidRequest, ServiceUnavailable
from api.core.openapi import problems
from api.core.params import DirectRoute, PageCursor, PageLimit, service
from api.core.problems import json_response
from api.games import (
    DAY_SCHEMA_PATTERN,
    ChallengeNotOpen,
    GameNotFound,
    InvalidChallengeDate,
    RaceGamePrivate,
)
from api.leaderboards.errors import InvalidWindow, NotOnBoard
from api.leaderboards.schemas import Around, Leaderboard, PeriodName
from api.leaderboards.service import LeaderboardService, Page, leaderboard_out, listing_of
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by

Leaderboards = Annotated[LeaderboardService, service("leaderboards")]


class ChallengeBoards(Protocol):
    """A daily challenge's board, which ``GET /leaderboard?challenge=`` lists: the challenges
    feature's (:class:`api.challenges.service.ChallengeService`), wired by the app."""

    async def board_page(self, raw_day: str, limit: int, cursor: str | None) -> Page: ...


async def _challenge_boards(request: Request) -> ChallengeBoards:
    boards: ChallengeBoards = request.app.state.challenges
    return boards


Challenges = Annotated[ChallengeBoards, Depends(_challenge_boards)]

Period = Annotated[
    PeriodName,
    Query(
        description="`all` (every won game), `day` (won on one UTC calendar day) or `week` "
        "(won in one ISO week, Monday to Sunday, UTC)."
    ),
]
PerPlayer = Annotated[
    Literal["best"] | None,
    Query(
        description="`best`: each player's best game only (a player is a name, compared "
        "ignoring case and width), ties to the earlier finish."
    ),
]
IncludeAssisted = Annotated[
    bool, Query(description="Also list games in which the player asked for hints.")
]

router = APIRouter(tags=["leaderboard"], route_class=DirectRoute)


@router.get(
    "/leaderboard",
    response_model=Leaderboard,
    summary="Read the leaderboard",
    responses=problems(
        ChallengeNotOpen,
        InvalidRequest,
        InvalidCursor,
        InvalidChallengeDate,
        InvalidWindow,
        RateLimited,
        ServiceUnavailable,
        examples={
            ChallengeNotOpen: Example(ChallengeNotOpen.example_detail(), "/leaderboard"),
            InvalidCursor: Example(
                "not a cursor of this challenge board; start again without one", "/leaderboard"
            ),
        },
    ),
    dependencies=[limited_by("read")],
)
async def read_leaderboard(
    leaderboards: Leaderboards,
    challenges: Challenges,
    limit: PageLimit = 20,
    cursor: PageCursor = None,
    include_assisted: IncludeAssisted = False,
    period: Period = "all",
    day: Annotated[
        date | None,
        Query(
            alias="date",
            description="`YYYY-MM-DD`, with `period=day` or `week`: the day, or a day of the "
            "week, to list (default: today, UTC). Not after today.",
        ),
    ] = None,
    per_player: PerPlayer = None,
    challenge: Annotated[
        str | None,
        Query(
            max_length=10,
            description="`YYYY-MM-DD` from 2026-01-01 (or `today`): that day's daily "
            "challenge board instead (its won games; challenge games have no hints).",
            json_schema_extra={"pattern": DAY_SCHEMA_PATTERN},
        ),
    ] = None,
) -> Response:
    """Won games, best score first and, on equal scores, earlier finish first. Page with
    `next_cursor`: paging never skips or repeats an entry, even while new wins arrive.
    `period=day` or `week` lists the games won on one UTC day or ISO week (today's, or the one
    holding `date`); `per_player=best` each player's best game once. Games whose player asked
    for a hint are left out unless `include_assisted=true`; a cursor belongs to the listing it
    came from (else `422 invalid_cursor`). With `challenge=YYYY-MM-DD`, the board of that
    day's daily challenge: its won games ranked the same way, paged with cursors of that day's
    board (no `period`, `date` or `per_player` then)."""
    if challenge is not None:
        if period != "all" or day is not None or per_player is not None:
            raise InvalidWindow(
                "a daily challenge's board is one day's, each player once: send challenge "
                "without period, date or per_player"
            )
        page = await challenges.board_page(challenge, limit, cursor)
        return json_response(leaderboard_out(page))
    listing = listing_of(period, day, per_player == "best", include_assisted)
    body = await leaderboards.rendered_page(listing, limit, cursor)
    return Response(body, media_type="application/json")


@router.get(
    "/leaderboard/around/{game_id}",
    response_model=Around,
    summary="A game's place on the leaderboard",
    responses=problems(
        GameNotFound,
        RaceGamePrivate,
        NotOnBoard,
        InvalidRequest,
        RateLimited,
        ServiceUnavailable,
        examples={
            GameNotFound: Example(
                "there is no game '0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80'",
                "/leaderboard/around/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
            )
        },
    ),
    dependencies=[limited_by("read")],
)
async def around(
    game_id: str,
    leaderboards: Leaderboards,
    period: Period = "all",
    per_player: PerPlayer = None,
    include_assisted: IncludeAssisted = False,
    count: Annotated[
        int, Query(ge=0, le=50, description="Entries to show above and below the game.")
    ] = 5,
) -> Response:
    """A won game's rank on its board of `period` (all time, or the UTC day or ISO week it
    was won in), with the `count` entries just above and just below it, ranked as
    `GET /leaderboard` ranks them. With `per_player=best` the game must be its player's best
    of that board; without `include_assisted=true`, an assisted game is on no board. The rank
    costs a few counter reads, whatever the board's size."""
    standing = await leaderboards.standing(
        game_id, period, per_player == "best", include_assisted, count
    )
    return json_response(standing)
