"""The leaderboard of won games."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response
from fastapi.exceptions import RequestValidationError

from api import services
from api.db import Database
from api.deps import database_of, leaderboard_pages_of
from api.routes.docs import problems
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
        "a cursor belongs to the listing it came from."
    ),
    responses=problems(422, 503),
)
async def read_leaderboard(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100, description="Entries per page.")] = 20,
    cursor: Annotated[
        str | None, Query(max_length=200, description="`next_cursor` of the previous page.")
    ] = None,
    include_assisted: Annotated[
        bool,
        Query(description="Also list games in which the player asked for hints."),
    ] = False,
) -> Response:
    database, pages = database_of(request), leaderboard_pages_of(request)
    revision = await database.reads.leaderboard_revision()
    page = (limit, cursor, include_assisted)
    body = pages.get(revision, page)
    if body is None:
        body = await _render_page(database, limit, cursor, include_assisted)
        pages.put(revision, page, body)
    return Response(body, media_type="application/json")


async def _render_page(
    database: Database, limit: int, cursor: str | None, include_assisted: bool
) -> bytes:
    try:
        page, next_cursor = await services.leaderboard(
            database.reads, limit, cursor, include_assisted=include_assisted
        )
    except services.InvalidCursor:
        raise RequestValidationError(
            [
                {
                    "loc": ("query", "cursor"),
                    "msg": "not a cursor of this leaderboard",
                    "type": "value_error",
                }
            ]
        ) from None
    # One validation of plain dicts: much cheaper than a model per entry.
    entries = [
        {
            "rank": item.rank,
            "player": item.score.player,
            "score": item.score.score,
            "game_id": item.score.game_id,
            "finished_at": item.score.finished_at,
            "assisted": item.score.assisted,
        }
        for item in page
    ]
    body = Leaderboard.model_validate({"entries": entries, "next_cursor": next_cursor})
    return body.model_dump_json().encode()
