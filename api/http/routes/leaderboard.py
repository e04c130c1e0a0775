"""The leaderboard of won games."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Response

from api.games.leaderboard import cached_page
from api.http.deps import CursorSecretDep, DatabaseDep, LeaderboardPagesDep
from api.http.openapi import problems
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
        "a cursor belongs to the listing it came from (else `422 invalid_cursor`)."
    ),
    responses=problems(422, 429, 503),
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
) -> Response:
    body = await cached_page(database, pages, secret, limit, cursor, include_assisted)
    return Response(body, media_type="application/json")
