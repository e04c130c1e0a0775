"""Player accounts, their pages and their games."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Response, status

from api.core.errors import (
    Example,
    IdempotencyKeyReused,
    InvalidCursor,
    InvalidPlayerName,
    InvalidRequest,
    InvalidToken,
    MissingToken,
    NameTaken,
    PayloadTooLarge,
    PlayerNotFound,
    RateLimited,
    RequestInProgress,
    ServiceUnavailable,
)
from api.core.openapi import header, problems
from api.core.params import CreationKey, PageCursor, PageLimit, PlayerKeyDep, service
from api.core.problems import json_response
from api.idempotency import REPLAYED_HEADER, answer_response
from api.ops.ratelimit import limited_by
from api.players.schemas import (
    PlayerCreate,
    PlayerCreated,
    PlayerGameOut,
    PlayerGames,
    PlayerKey,
    PlayerOut,
)
from api.players.service import PlayerService, Profile, stats_out

Players = Annotated[PlayerService, service("players")]

router = APIRouter(prefix="/players", tags=["players"])


def _player_out(found: Profile) -> PlayerOut:
    stats = stats_out(found.stats, found.races)
    return PlayerOut(
        name=found.player.name,
        created_at=found.player.created_at,
        stats=stats,
        marked=found.marked,
    )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=PlayerCreated,
    summary="Register a player",
    responses={
        201: {"headers": {"Location": header("/players/{name}"), **REPLAYED_HEADER}},
        **problems(
            NameTaken,
            RequestInProgress,
            PayloadTooLarge,
            InvalidPlayerName,
            InvalidRequest,
            IdempotencyKeyReused,
            RateLimited,
            ServiceUnavailable,
        ),
    },
    dependencies=[limited_by("create")],
)
async def create_player(
    body: PlayerCreate, players: Players, idempotency_key: CreationKey = None
) -> Response:
    """Registers a name and answers with the player and their secret `key`, shown only in
    this response (it is stored hashed) and in its replays: send an `Idempotency-Key`, and a
    retry of a registration whose answer was lost (a dropped connection, a `502`) gets the
    same account and key rather than `409 name_taken`. Send the key as
    `Authorization: Bearer <key>` on `POST /games` to play as this player. A name is 3 to 24
    ASCII letters, digits, `_` or `-`, at least one of them a letter, and one name with no
    other account's or reserved name (see `name`); a guest can no longer play under it."""
    answer, replayed = await players.register(body.name, idempotency_key)
    return answer_response(answer, replayed)


@router.get(
    "/me",
    response_model=PlayerOut,
    summary="Read the page of the key's player",
    responses=problems(MissingToken, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def read_own_player(players: Players, key: PlayerKeyDep) -> Response:
    """The page of the player whose key is sent as `Authorization: Bearer <key>` (as
    `GET /players/{name}`): how a client checks a key, and learns its account's name, without
    changing anything. `me` is no player's name (names have 3 to 24 characters)."""
    found = await players.own_profile(key)
    return json_response(_player_out(found))


@router.get(
    "/{name}",
    response_model=PlayerOut,
    summary="Read a player's page",
    responses=problems(PlayerNotFound, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def read_player(name: str, players: Players) -> Response:
    """A player's figures: games played, won and lost, win rate, best and mean winning score,
    current and longest winning streak, and when they last played. They are updated in the
    same transaction as the game that starts or ends, so they always equal a count of the
    player's games. The name matches in any case or width."""
    found = await players.profile(name)
    return json_response(_player_out(found))


@router.post(
    "/{name}/key",
    response_model=PlayerKey,
    summary="Rotate a player's key",
    responses={
        200: {"headers": REPLAYED_HEADER},
        **problems(
            MissingToken,
            InvalidToken,
            PlayerNotFound,
            RequestInProgress,
            InvalidRequest,
            IdempotencyKeyReused,
            RateLimited,
            ServiceUnavailable,
            examples={
                MissingToken: Example(
                    "send the player's current key as 'Authorization: Bearer <key>'",
                    "/players/ana/key",
                ),
                InvalidToken: Example(
                    "this key is not this player's current key", "/players/ana/key"
                ),
            },
        ),
    },
    dependencies=[limited_by("create")],
)
async def rotate_player_key(
    name: str, players: Players, key: PlayerKeyDep, idempotency_key: CreationKey = None
) -> Response:
    """Replaces the player's key with a new one, shown only in this response (and in its
    replays under the same `Idempotency-Key`, sent with the same key). Needs the current key
    as `Authorization: Bearer <key>`. The old key keeps working until the new one is first
    used (by any request that authenticates with it), then is refused: a rotation whose
    answer was lost never strands the account, and a rotation sent again with the old key
    before then answers a fresh key (the unread one is refused from then on). Game tokens
    are not affected."""
    answer, replayed = await players.rotate_key(name, key, idempotency_key)
    return answer_response(answer, replayed)


@router.get(
    "/{name}/games",
    response_model=PlayerGames,
    summary="List a player's games",
    responses=problems(
        PlayerNotFound, InvalidCursor, InvalidRequest, RateLimited, ServiceUnavailable
    ),
    dependencies=[limited_by("read")],
)
async def list_player_games(
    name: str,
    players: Players,
    game_status: Annotated[
        Literal["in_progress", "won", "lost"] | None,
        Query(alias="status", description="Only games of this status."),
    ] = None,
    limit: PageLimit = 20,
    cursor: PageCursor = None,
) -> Response:
    """The player's games, newest first, optionally only those of one `status`. Page with
    `next_cursor`, passing the same `status`: a cursor belongs to the listing it came from
    (else `422 invalid_cursor`)."""
    page = await players.games_page(name, game_status, limit, cursor)
    body = PlayerGames(
        player=page.player.name,
        games=[PlayerGameOut.model_validate(row._asdict()) for row in page.games],
        next_cursor=page.next_cursor,
    )
    return json_response(body)
