"""Games and placements."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Response, status

from api.accounts import InvalidToken, MissingToken, NameTaken, PlayerNameMismatch
from api.core.errors import (
    Example,
    InvalidPlayerName,
    InvalidRequest,
    PayloadTooLarge,
    ServiceUnavailable,
)
from api.core.openapi import header, problems
from api.core.params import (
    CreationKey,
    DirectRoute,
    IfMatch,
    IfNoneMatch,
    PlacementKey,
    PlayerKeyDep,
    TokenDep,
    service,
)
from api.core.problems import json_response
from api.games import etags
from api.games.errors import (
    ChallengeAlreadyPlayed,
    ChallengeClosed,
    ChallengeGamePrivate,
    GameIsOver,
    GameNotFound,
    PlacementRefused,
    PlayerKeyRequired,
    PreconditionFailed,
    RaceGamePrivate,
    VersionConflict,
)
from api.games.records import NewGameRequest, placement_out
from api.games.schemas import (
    GameCreate,
    GameCreated,
    GameOut,
    PlacementCreated,
    PlacementHistory,
    PlacementIn,
)
from api.games.service import GameService
from api.idempotency import (
    REPLAYED_HEADER,
    IdempotencyKeyReused,
    RequestInProgress,
    answer_response,
)
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by

Games = Annotated[GameService, service("games")]

# Reads of a game and of its history take their parameters without dependency solving.
router = APIRouter(prefix="/games", tags=["games"], route_class=DirectRoute)

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PRIVATE = "private, no-cache"  # a daily challenge game while its day is open

_ETAG_HEADER = {
    "ETag": header(
        'The game\'s version, e.g. `"v3"`; a won game\'s also names its rank, e.g. `"v21.r42"`.'
    )
}
# A game and its history are read alike: revalidated with their ETag.
_READ_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {
        "headers": {
            **_ETAG_HEADER,
            "Cache-Control": header(
                "`public, max-age=31536000, immutable` once the game is lost (it never "
                "changes again); `no-cache` before, and for a won game, whose rank moves "
                "(revalidate with the ETag)."
            ),
        }
    },
    304: {"description": "Not modified since the ETag in `If-None-Match`."},
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    summary="Start a game",
    # The player's key is optional (guests play without one): FastAPI lists the PlayerKey
    # requirement, and this adds the empty one ("or nothing") after it.
    openapi_extra={"security": [{}]},
    responses={
        201: {
            "headers": {
                "Location": header("/games/{id}"),
                **_ETAG_HEADER,
                **REPLAYED_HEADER,
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
        **problems(
            PlayerKeyRequired,
            InvalidToken,
            NameTaken,
            RequestInProgress,
            ChallengeAlreadyPlayed,
            PayloadTooLarge,
            InvalidRequest,
            InvalidPlayerName,
            PlayerNameMismatch,
            IdempotencyKeyReused,
            RateLimited,
            ServiceUnavailable,
            examples={
                NameTaken: Example(
                    "'ANA' is a registered player's name: send their key as "
                    "'Authorization: Bearer <key>', or play under another name",
                    "/games",
                )
            },
        ),
    },
    dependencies=[limited_by("create")],
)
async def create_game(
    games: Games,
    key: PlayerKeyDep,
    idempotency_key: CreationKey = None,
    body: Annotated[GameCreate | None, Body()] = None,
) -> Response:
    """Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the
    game and its `token`, which authorises placements and is shown only in this response (and
    in replays of it under the same `Idempotency-Key`). The `Location` header points at the
    new game. `deck_commitment` fixes the deal: the deck and the salt behind it are revealed
    when the game ends. With a registered player's key as `Authorization: Bearer <key>`, the
    game is that player's (its `player` is the account's name, and the key also authorises
    its placements and hints); without one it is a guest's, under any name that is no
    account's. `{"challenge": "daily"}` (with a player's key) deals today's daily challenge
    instead: the same deal for every player, whose `deck_commitment` is the day's
    (`GET /challenges/today`); one attempt per player per UTC day, played without hints,
    finished before the day closes, private to its player and without its reveal until then.
    """
    # The body's name if it gave one (an absent name means "the key's account", or a guest).
    requested = body.player if body is not None and "player" in body.model_fields_set else None
    daily = body is not None and body.challenge == "daily"
    answer, replayed = await games.create(NewGameRequest(requested, daily, key), idempotency_key)
    return answer_response(answer, replayed)


@router.get(
    "/{game_id}",
    response_model=GameOut,
    summary="Read a game",
    openapi_extra={"security": [{}]},
    responses={
        **_READ_RESPONSES,
        **problems(
            ChallengeGamePrivate, RaceGamePrivate, GameNotFound, RateLimited, ServiceUnavailable
        ),
    },
    dependencies=[limited_by("read")],
)
async def read_game(
    game_id: str, games: Games, token: TokenDep, if_none_match: IfNoneMatch = None
) -> Response:
    """The game as anyone may see it: piles, current card, legal placements, status and
    score. Reading is public; the order of the stock is never shown while the game is in
    progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. A
    daily challenge game is its player's only (their token or key) until its day closes, and
    shows its `reveal` only from then on (its ETag ends in `-sealed` while it is over but
    sealed; `Cache-Control: private, no-cache`)."""
    read = await games.read(game_id, token)
    game = read.game
    over = game.status != "in_progress"
    # A lost game never changes again; a game in progress is revalidated with its ETag, and
    # so is a won one: its rank moves as better games finish, and its ETag names the rank.
    # A won game under the fair-play review changes its word without a new version.
    cache = IMMUTABLE if over and game.rank is None and game.fair_play is None else REVALIDATE
    tag = f"v{game.version}"
    if read.sealed:
        # A daily challenge game of a day still open is its player's only, and once over it
        # gains its reveal when the day closes without changing version: another ETag then.
        cache = PRIVATE
        if over:
            tag += "-sealed"
    if game.rank is not None:
        tag += f".r{game.rank}"
    if game.fair_play is not None:
        tag += f".{game.fair_play.status}"
    headers = {"ETag": f'"{tag}"', "Cache-Control": cache}
    if etags.if_none_match_hits(if_none_match, headers["ETag"]):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return json_response(game, headers=headers)


@router.post(
    "/{game_id}/placements",
    status_code=status.HTTP_201_CREATED,
    response_model=PlacementCreated,
    summary="Place the current card",
    responses={
        201: {
            "headers": {**_ETAG_HEADER, **REPLAYED_HEADER},
            "links": {
                "PlaceNextCard": {
                    "operationId": "place_card",
                    "description": "Place the next card at its first legal placement.",
                    "parameters": {
                        "game_id": "$request.path.game_id",
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
        **problems(
            MissingToken,
            InvalidToken,
            GameNotFound,
            GameIsOver,
            VersionConflict,
            RequestInProgress,
            ChallengeClosed,
            PreconditionFailed,
            PayloadTooLarge,
            InvalidRequest,
            PlacementRefused,
            IdempotencyKeyReused,
            RateLimited,
            ServiceUnavailable,
        ),
    },
    dependencies=[limited_by("place")],
)
async def place_card(
    game_id: str,
    body: PlacementIn,
    games: Games,
    token: TokenDep,
    if_match: IfMatch = None,
    idempotency_key: PlacementKey = None,
) -> Response:
    """Places the current card at `(row, col)`: on an existing pile that holds fewer than four
    cards, or as a new pile next to one, within a 4 x 4 grid. Answers with the placement (what
    it flipped) and the game after it. Needs the game's token. Send `If-Match` with the ETag
    you last saw to be sure no other placement came first, and an `Idempotency-Key` to retry
    safely."""
    answer, replayed = await games.place(
        game_id, token, (body.row, body.col), if_match, idempotency_key
    )
    return answer_response(answer, replayed)


@router.get(
    "/{game_id}/placements",
    response_model=PlacementHistory,
    summary="Read a game's history",
    openapi_extra={"security": [{}]},
    responses={
        **_READ_RESPONSES,
        **problems(
            ChallengeGamePrivate, RaceGamePrivate, GameNotFound, RateLimited, ServiceUnavailable
        ),
    },
    dependencies=[limited_by("read")],
)
async def list_placements(
    game_id: str, games: Games, token: TokenDep, if_none_match: IfNoneMatch = None
) -> Response:
    """Every placement of the game, first to last, with what each one flipped. A daily
    challenge game's history is its player's only (their token or key) until its day
    closes."""
    history = await games.history(game_id, token)
    # A history only ever grows by one placement at a time: its length names it.
    headers = {
        "ETag": f'"p{len(history.placements)}"',
        "Cache-Control": PRIVATE if history.private else REVALIDATE,
    }
    if etags.if_none_match_hits(if_none_match, headers["ETag"]):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    body = PlacementHistory(
        game_id=history.game_id,
        placements=[placement_out(placement) for placement in history.placements],
    )
    return json_response(body, headers=headers)
