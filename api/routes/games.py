"""Games and placements."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header, Response, status

from api import services
from api.deps import ReadSessionDep, WriteSessionDep
from api.presenters import game_created, game_out, placement_out
from api.routes.docs import problems
from api.schemas import (
    GameCreate,
    GameCreated,
    GameOut,
    PlacementCreated,
    PlacementHistory,
    PlacementIn,
)

router = APIRouter(prefix="/games", tags=["games"])

AuthorizationHeader = Annotated[
    str | None,
    Header(description="`Bearer <token>`, the token returned when the game was created."),
]


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    summary="Start a game",
    description=(
        "Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the "
        "game and its `token`, which authorises placements and is shown only in this response. "
        "The `Location` header points at the new game."
    ),
    responses={
        201: {
            "headers": {"Location": {"description": "/games/{id}", "schema": {"type": "string"}}}
        },
        **problems(413, 422, 503),
    },
)
def create_game(
    session: WriteSessionDep,
    response: Response,
    body: Annotated[GameCreate | None, Body()] = None,
) -> GameCreated:
    created = services.create_game(session, (body or GameCreate()).player)
    session.flush()
    response.headers["Location"] = f"/games/{created.row.id}"
    return game_created(created.row, created.game, created.token)


@router.get(
    "/{game_id}",
    summary="Read a game",
    description=(
        "The game as anyone may see it: piles, current card, legal placements, status and "
        "score. Reading is public; the order of the stock is never shown."
    ),
    responses=problems(404, 503),
)
def read_game(game_id: str, session: ReadSessionDep) -> GameOut:
    loaded = services.load_game(session, game_id)
    return game_out(loaded.row, loaded.game)


@router.post(
    "/{game_id}/placements",
    status_code=status.HTTP_201_CREATED,
    summary="Place the current card",
    description=(
        "Places the current card at `(row, col)`: on an existing pile that holds fewer than "
        "four cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the "
        "placement (what it flipped) and the game after it. Needs the game's token."
    ),
    responses=problems(401, 403, 404, 409, 413, 422, 503),
)
def place_card(
    game_id: str,
    body: PlacementIn,
    session: WriteSessionDep,
    authorization: AuthorizationHeader = None,
) -> PlacementCreated:
    placed = services.place_card(session, game_id, authorization, body.row, body.col)
    return PlacementCreated(
        placement=placement_out(placed.placement), game=game_out(placed.row, placed.game)
    )


@router.get(
    "/{game_id}/placements",
    summary="Read a game's history",
    description="Every placement of the game, first to last, with what each one flipped.",
    responses=problems(404, 503),
)
def list_placements(game_id: str, session: ReadSessionDep) -> PlacementHistory:
    game_uuid, rows = services.history(session, game_id)
    return PlacementHistory(game_id=game_uuid, placements=[placement_out(row) for row in rows])
