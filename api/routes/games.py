"""Games and placements."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Request, Response, status
from sqlalchemy.orm import Session
from starlette.concurrency import run_in_threadpool

from api import idempotency, services
from api.conditional import etag, if_none_match_hits
from api.db import Database
from api.deps import DatabaseDep, SettingsDep, database_of
from api.idempotency import StoredResponse
from api.presenters import (
    game_created,
    placement_created_json,
    placement_out,
    position_out,
)
from api.responses import json_response
from api.routes.docs import problems
from api.routes.headers import (
    AUTHORIZATION,
    IDEMPOTENCY_KEY,
    IF_MATCH,
    IF_NONE_MATCH,
    documented,
)
from api.schemas import (
    GameCreate,
    GameCreated,
    GameOut,
    Hint,
    HintOption,
    PlacementCreated,
    PlacementHistory,
    PlacementIn,
)
from engine.player.advice import Budget

router = APIRouter(prefix="/games", tags=["games"])

_ETAG_HEADER = {
    "ETag": {"description": 'The game\'s version, e.g. `"v3"`.', "schema": {"type": "string"}}
}
_REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored response of an earlier request.",
        "schema": {"type": "string"},
    }
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    summary="Start a game",
    description=(
        "Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the "
        "game and its `token`, which authorises placements and is shown only in this response "
        "(and in replays of it under the same `Idempotency-Key`). The `Location` header points "
        "at the new game. `deck_commitment` fixes the deal: the deck and the salt behind it are "
        "revealed when the game ends."
    ),
    openapi_extra=documented(IDEMPOTENCY_KEY),
    responses={
        201: {
            "headers": {
                "Location": {"description": "/games/{id}", "schema": {"type": "string"}},
                **_ETAG_HEADER,
                **_REPLAYED_HEADER,
            },
            "links": {
                "ReadGame": {
                    "operationId": "read_game",
                    "parameters": {"game_id": "$response.body#/id"},
                },
                "PlaceCard": {
                    "operationId": "place_card",
                    "description": "Place the first card: at (0, 0), with the game's token.",
                    "parameters": {
                        "game_id": "$response.body#/id",
                        "header.authorization": "Bearer {$response.body#/token}",
                        "header.if-match": "$response.header.ETag",
                    },
                    "requestBody": "$response.body#/legal_placements/0",
                },
                "ReadHistory": {
                    "operationId": "list_placements",
                    "parameters": {"game_id": "$response.body#/id"},
                },
                "AskForHint": {
                    "operationId": "hint",
                    "parameters": {
                        "game_id": "$response.body#/id",
                        "header.authorization": "Bearer {$response.body#/token}",
                    },
                },
            },
        },
        **problems(409, 413, 422, 503),
    },
)
async def create_game(
    database: DatabaseDep,
    request: Request,
    body: Annotated[GameCreate | None, Body()] = None,
) -> Response:
    idempotency_key = IDEMPOTENCY_KEY.read(request)
    player = (body or GameCreate()).player

    def work(session: Session) -> services.NewGame:
        return services.create_game(session, player)

    def render(created: services.NewGame) -> StoredResponse:
        out = game_created(created.row, created.game, created.token)
        return StoredResponse(
            201,
            out.model_dump_json().encode(),
            {"Location": f"/games/{created.row.id}", "ETag": etag(created.row.version)},
        )

    if idempotency_key is None:
        # Deal before taking a turn to write: the transaction only inserts.
        created = services.new_game(player)
        stored = await database.write(lambda session: services.store_new_game(session, created))
        response = render(stored).to_response()
        # Rendered: from here its engine state belongs to the games in play.
        database.in_play.put(stored.row, stored.game)
        return response
    return await run_in_threadpool(
        idempotency.execute,
        database,
        scope="games",
        key=idempotency_key,
        request_fingerprint=idempotency.fingerprint("POST", "/games", {"player": player}),
        instance="/games",
        work=work,
        render=render,
    )


@router.get(
    "/{game_id}",
    response_model=GameOut,
    summary="Read a game",
    description=(
        "The game as anyone may see it: piles, current card, legal placements, status and "
        "score. Reading is public; the order of the stock is never shown while the game is in "
        "progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed."
    ),
    openapi_extra=documented(IF_NONE_MATCH),
    responses={
        200: {"headers": _ETAG_HEADER},
        304: {"description": "Not modified since the ETag in `If-None-Match`."},
        **problems(404, 503),
    },
)
async def read_game(game_id: str, request: Request) -> Response:
    if_none_match = IF_NONE_MATCH.read(request)
    # The version and the JSON stored with it (rendered when the game was written): the
    # state, the token's hash and the rest of the row stay in the database.
    version, body = await services.read_public_game(database_of(request).reads, game_id)
    current = etag(version)
    if if_none_match_hits(if_none_match, current):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers={"ETag": current})
    return Response(body, media_type="application/json", headers={"ETag": current})


@router.post(
    "/{game_id}/placements",
    status_code=status.HTTP_201_CREATED,
    response_model=PlacementCreated,
    summary="Place the current card",
    description=(
        "Places the current card at `(row, col)`: on an existing pile that holds fewer than "
        "four cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the "
        "placement (what it flipped) and the game after it. Needs the game's token. Send "
        "`If-Match` with the ETag you last saw to be sure no other placement came first, and "
        "an `Idempotency-Key` to retry safely."
    ),
    openapi_extra=documented(AUTHORIZATION, IF_MATCH, IDEMPOTENCY_KEY),
    responses={
        201: {
            "headers": {**_ETAG_HEADER, **_REPLAYED_HEADER},
            "links": {
                "PlaceNextCard": {
                    "operationId": "place_card",
                    "description": "Place the next card at its first legal placement.",
                    "parameters": {
                        "game_id": "$request.path.game_id",
                        "header.authorization": "$request.header.authorization",
                        "header.if-match": "$response.header.ETag",
                    },
                    "requestBody": "$response.body#/game/legal_placements/0",
                },
                "ReadGame": {
                    "operationId": "read_game",
                    "parameters": {"game_id": "$request.path.game_id"},
                },
            },
        },
        **problems(401, 403, 404, 409, 412, 413, 422, 503),
    },
)
async def place_card(
    game_id: str,
    body: PlacementIn,
    database: DatabaseDep,
    request: Request,
) -> Response:
    authorization = AUTHORIZATION.read(request)
    if_match = IF_MATCH.read(request)
    idempotency_key = IDEMPOTENCY_KEY.read(request)
    # The placement is decided on the game as read (or as this process last stored it),
    # before the write transaction takes its connection (on SQLite, the write lock), and
    # stored only if the game has not moved since.
    if idempotency_key is None:
        placed = await services.place_card(
            database, game_id, authorization, body.row, body.col, if_match
        )
        return _placement_response(placed).to_response()
    return await run_in_threadpool(
        _place_idempotently,
        database,
        game_id,
        body,
        authorization,
        if_match,
        idempotency_key,
    )


def _place_idempotently(
    database: Database,
    game_id: str,
    body: PlacementIn,
    authorization: str | None,
    if_match: str | None,
    idempotency_key: str,
) -> Response:
    """A placement under an ``Idempotency-Key`` (see :mod:`api.idempotency`), in a worker
    thread: claim the key, plan and store the placement with its response, or replay."""
    with database.transaction(write=False) as session:
        game_uuid = services.authorize_request(session, game_id, authorization)

    def work(session: Session) -> services.PlacedCard:
        with database.transaction(write=False) as read_session:
            row = services.fetch_game(read_session, game_id)
        plan = services.plan_placement(row, authorization, body.row, body.col, if_match)
        return services.store_placement(session, plan)

    # A keyed placement reads the game and keeps no copy: the one kept here goes stale.
    database.in_play.discard(game_uuid)
    return idempotency.execute(
        database,
        scope=f"game:{game_uuid.hex}",
        key=idempotency_key,
        request_fingerprint=idempotency.fingerprint("POST", "placements", body.model_dump()),
        instance=f"/games/{game_id}/placements",
        work=work,
        render=_placement_response,
    )


def _placement_response(placed: services.PlacedCard) -> StoredResponse:
    assert placed.row.public_json is not None  # rendered by plan_placement
    body = placement_created_json(placed.placement, placed.row.public_json)
    return StoredResponse(201, body, {"ETag": etag(placed.row.version)})


@router.get(
    "/{game_id}/placements",
    response_model=PlacementHistory,
    summary="Read a game's history",
    description="Every placement of the game, first to last, with what each one flipped.",
    responses=problems(404, 503),
)
async def list_placements(game_id: str, request: Request) -> Response:
    game_uuid, rows = await services.history(database_of(request).reads, game_id)
    return json_response(
        PlacementHistory(game_id=game_uuid, placements=[placement_out(row) for row in rows])
    )


@router.get(
    "/{game_id}/hint",
    response_model=Hint,
    summary="Ask the computer player for a hint",
    description=(
        "Where the computer player would put the current card, with its estimated chance to "
        "win and expected score (a loss counts 0) for that placement and every other legal "
        "one. It decides from the public state only, like the player. Needs the game's token. "
        "A game that asked for a hint is marked `assisted` (its version goes up once) and its "
        "win is left off the default leaderboard."
    ),
    openapi_extra=documented(AUTHORIZATION),
    responses={200: {"headers": _ETAG_HEADER}, **problems(401, 403, 404, 409, 503)},
)
def hint(
    game_id: str,
    database: DatabaseDep,
    settings: SettingsDep,
    request: Request,
) -> Response:
    authorization = AUTHORIZATION.read(request)
    with database.transaction(write=False) as session:
        loaded = services.load_game(session, game_id)
        services.authorize(loaded.row, authorization)
    advice = services.compute_hint(
        loaded, Budget(placements=settings.hint_placements, milliseconds=settings.hint_max_ms)
    )
    with database.transaction(write=True) as session:
        version = services.mark_assisted(session, loaded)
    database.in_play.discard(loaded.row.id)  # now assisted, at a later version
    best, *others = advice.estimates
    body = Hint(
        placement=position_out(best.position),
        win_probability=best.win_probability,
        expected_score=best.expected_score,
        alternatives=[
            HintOption(
                placement=position_out(option.position),
                win_probability=option.win_probability,
                expected_score=option.expected_score,
            )
            for option in others
        ],
        policy=advice.policy.value,
        simulated_placements=advice.simulated_placements,
    )
    return json_response(body, headers={"ETag": etag(version)})
