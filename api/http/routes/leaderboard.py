"""The leaderboard of won games."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.errors import ChallengeNotOpen, InvalidChallengeDate, InvalidCursor
from api.games import challenges
from api.games.leaderboard import cached_page
from api.http.deps import CursorSecretDep, DatabaseDep, LeaderboardPagesDep
from api.http.errors import json_response
from api.http.openapi import problem_example, problems
from api.http.ratelimit import limited_by
from api.schemas import Leaderboard

router = APIRouter(tags=["leaderboard"])


@router.get(
    "/leaderboard",
    response_model=Leaderboard,
    summary="Read the leaderboard",
    description=(
        "Won games, best score first and, on equal scores, earlier finish first. Page with "
        "`next_cursor`: paging never skips or repeats an entry, even while new wins arrive. "
        "Games whose player asked for a hint are left out unless `include_assisted=true`; "
        "a cursor belongs to the listing it came from (else `422 invalid_cursor`). With "
        "`challenge=YYYY-MM-DD`, the board of that day's daily challenge: its won games "
        "ranked the same way, paged with cursors of that day's board."
    ),
    responses=problems(
        404,
        422,
        429,
        503,
        descriptions={
            404: "`challenge_not_open`: `challenge` names a day still to come.",
            422: "`invalid_request` (malformed input; see `errors`), `invalid_cursor` (a "
            "cursor of another listing, or not this service's), or `invalid_challenge_date` "
            "(`challenge` is no `YYYY-MM-DD` date from 2026-01-01 on).",
        },
        examples={
            404: {
                "challenge_not_open": problem_example(
                    ChallengeNotOpen,
                    "the challenge of 2026-12-05 opens at 2026-12-05T00:00:00+00:00; "
                    "today's is 2026-12-01",
                    "/leaderboard",
                )
            },
            422: {
                "invalid_cursor": problem_example(
                    InvalidCursor,
                    "not a cursor of this challenge board; start again without one",
                    "/leaderboard",
                ),
                "invalid_challenge_date": problem_example(
                    InvalidChallengeDate,
                    "'2026-02-30' is not a challenge date: send 'today' or a date from "
                    "2026-01-01 on as YYYY-MM-DD",
                    "/leaderboard",
                ),
            },
        },
    ),
    dependencies=[limited_by("read")],
)
async def read_leaderboard(
    database: DatabaseDep,
    pages: LeaderboardPagesDep,
    secret: CursorSecretDep,
    limit: Annotated[int, Query(ge=1, le=100, description="Entries per page.")] = 20,
    cursor: Annotated[
        str | None, Query(max_length=200, description="`next_cursor` of the previous page.")
    ] = None,
    include_assisted: Annotated[
        bool,
        Query(description="Also list games in which the player asked for hints."),
    ] = False,
    challenge: Annotated[
        str | None,
        Query(
            max_length=10,
            description="`YYYY-MM-DD` from 2026-01-01 (or `today`): that day's daily "
            "challenge board instead (its won games; challenge games have no hints).",
            json_schema_extra={"pattern": challenges.DAY_SCHEMA_PATTERN},
        ),
    ] = None,
) -> Response:
    if challenge is not None:
        board = await challenges.board_page(database, secret, challenge, limit, cursor)
        return json_response(board)
    body = await cached_page(database, pages, secret, limit, cursor, include_assisted)
    return Response(body, media_type="application/json")
