"""Player accounts, their pages and their games; their keys, recovery codes and passkeys, and
signing in on another device."""

from __future__ import annotations

import logging
import uuid
from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request, Response, status

from api.accounts import (
    AccountService,
    InvalidRecoveryCode,
    InvalidToken,
    KeyNotFound,
    LastKey,
    MissingToken,
    NameTaken,
    NewKey,
    PasskeyRefused,
    PlayerNotFound,
)
from api.core.errors import (
    Example,
    InvalidCursor,
    InvalidPlayerName,
    InvalidRequest,
    PayloadTooLarge,
    ServiceUnavailable,
)
from api.core.names import name_key
from api.core.openapi import header, problems
from api.core.params import CreationKey, PageCursor, PageLimit, PlayerKeyDep, service
from api.core.problems import json_response
from api.idempotency import (
    REPLAYED_HEADER,
    IdempotencyKeyReused,
    RequestInProgress,
    answer_response,
)
from api.ops.errors import RateLimited, SignInLimited
from api.ops.ratelimit import SignInGuard, limited_by
from api.players.schemas import (
    KeyCreate,
    KeyOut,
    NewKeyOut,
    PasskeyCeremony,
    PasskeyOut,
    PasskeyRegistration,
    PasskeySignIn,
    PlayerCreate,
    PlayerCreated,
    PlayerCredentials,
    PlayerGameOut,
    PlayerGames,
    PlayerKey,
    PlayerOut,
    RecoveryCodeSignIn,
    RecoveryCodesOut,
    TrophiesOut,
)
from api.players.service import PlayerService, Profile, stats_out

Players = Annotated[PlayerService, service("players")]
Accounts = Annotated[AccountService, service("accounts")]

router = APIRouter(prefix="/players", tags=["players"])
sign_in_router = APIRouter(prefix="/sign-in", tags=["players"])
log = logging.getLogger("foursquare.sign_in")

# The problems of a route that needs one of the named player's keys.
_OWNER = (MissingToken, InvalidToken, PlayerNotFound, RateLimited, ServiceUnavailable)
_KEY_ID = "5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f"


def _player_out(found: Profile) -> PlayerOut:
    stats = stats_out(found.stats, found.races)
    return PlayerOut(
        name=found.player.name,
        created_at=found.player.created_at,
        stats=stats,
        marked=found.marked,
        tournaments=TrophiesOut(**found.tournaments) if found.tournaments else TrophiesOut(),
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
    """Registers a name and answers with the player, their secret `key` (named `key_name`)
    and ten one-time `recovery_codes`, shown only in this response (they are stored hashed)
    and in its replays: send an `Idempotency-Key`, and a retry of a registration whose answer
    was lost (a dropped connection, a `502`) gets the same account, key and codes rather than
    `409 name_taken`. Send the key as `Authorization: Bearer <key>` on `POST /games` to play
    as this player. A name is 3 to 24 ASCII letters, digits, `_` or `-`, at least one of them
    a letter, and one name with no other account's or reserved name (see `name`); a guest can
    no longer play under it."""
    answer, replayed = await players.register(body.name, idempotency_key, body.key_name)
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
    """Replaces the secret of the key sent as `Authorization: Bearer <key>` (one of the
    player's keys) with a new one, shown only in this response (and in its replays under the
    same `Idempotency-Key`, sent with the same key); the key keeps its name and id. The old
    secret keeps working until the new one is first used (by any request that changes
    something with it, or `GET /players/me`), then is refused: a rotation whose answer was
    lost never strands the account, and a rotation sent again with the old secret before
    then answers a fresh one (the unread one is refused from then on). The player's other
    keys and game tokens are not affected."""
    answer, replayed = await players.rotate_key(name, key, idempotency_key)
    return answer_response(answer, replayed)


def _new_key_out(made: NewKey) -> NewKeyOut:
    return NewKeyOut(
        player=made.player.name,
        id=made.key.id,
        name=made.key.name,
        created_at=made.key.created_at,
        key=made.secret,
    )


@router.get(
    "/{name}/credentials",
    response_model=PlayerCredentials,
    summary="List a player's keys and passkeys",
    responses=problems(*_OWNER),
    dependencies=[limited_by("read")],
)
async def list_credentials(name: str, accounts: Accounts, key: PlayerKeyDep) -> Response:
    """The player's keys (name, when made, when last used: never a secret; `this_key` marks
    the one sent), their passkeys, and how many recovery codes are left. Needs one of the
    player's keys as `Authorization: Bearer <key>`."""
    found = await accounts.credentials(name, key)
    out = PlayerCredentials(
        player=found.player.name,
        keys=[
            KeyOut(
                id=k.id,
                name=k.name,
                created_at=k.created_at,
                last_used_at=k.last_used_at,
                this_key=k.id == found.this_key,
            )
            for k in found.keys
        ],
        passkeys=[
            PasskeyOut(id=p.id, name=p.name, created_at=p.created_at, last_used_at=p.last_used_at)
            for p in found.passkeys
        ],
        recovery_codes_left=found.recovery_codes_left,
    )
    return json_response(out)


@router.post(
    "/{name}/keys",
    status_code=status.HTTP_201_CREATED,
    response_model=NewKeyOut,
    summary="Create a key for another device",
    responses=problems(*_OWNER, InvalidRequest, PayloadTooLarge),
    dependencies=[limited_by("create")],
)
async def create_key(name: str, body: KeyCreate, accounts: Accounts, key: PlayerKeyDep) -> Response:
    """A new named key of the player (for another device), its secret shown only in this
    response. Needs one of the player's keys as `Authorization: Bearer <key>`."""
    made = await accounts.create_key(name, key, body.name)
    return json_response(_new_key_out(made), 201)


@router.delete(
    "/{name}/keys/{key_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Revoke one of a player's keys",
    responses=problems(*_OWNER, KeyNotFound, LastKey, InvalidRequest),
    dependencies=[limited_by("create")],
)
async def revoke_key(
    name: str, key_id: uuid.UUID, accounts: Accounts, key: PlayerKeyDep
) -> Response:
    """Revokes a key (the one sent, too): it is refused from then on. The last key is never
    revoked (`409 last_key`): an account always keeps one. Needs one of the player's keys as
    `Authorization: Bearer <key>`."""
    await accounts.revoke_key(name, key, key_id)
    return Response(status_code=204)


@router.post(
    "/{name}/recovery-codes",
    status_code=status.HTTP_201_CREATED,
    response_model=RecoveryCodesOut,
    summary="Replace a player's recovery codes",
    responses=problems(*_OWNER),
    dependencies=[limited_by("create")],
)
async def create_recovery_codes(name: str, accounts: Accounts, key: PlayerKeyDep) -> Response:
    """Ten new one-time recovery codes, shown only in this response; the unspent ones are
    void from then on. Needs one of the player's keys as `Authorization: Bearer <key>`."""
    codes = await accounts.new_recovery_codes(name, key)
    return json_response(RecoveryCodesOut(player=name, recovery_codes=codes), 201)


@router.post(
    "/{name}/passkey-options",
    response_model=PasskeyCeremony,
    summary="Begin registering a passkey",
    responses=problems(*_OWNER),
    dependencies=[limited_by("create")],
)
async def passkey_registration_options(
    name: str, request: Request, accounts: Accounts, key: PlayerKeyDep
) -> Response:
    """The options of `navigator.credentials.create()` for a new passkey of the player (a
    discoverable one, so that a new device signs in without a name). Needs one of the
    player's keys as `Authorization: Bearer <key>`."""
    ceremony = await accounts.passkey_options(
        name, key, accounts.relying(request.headers.get("host"))
    )
    return json_response(
        PasskeyCeremony(challenge_id=ceremony.challenge_id, options=ceremony.options)
    )


@router.post(
    "/{name}/passkeys",
    status_code=status.HTTP_201_CREATED,
    response_model=PasskeyOut,
    summary="Register a passkey",
    responses=problems(*_OWNER, PasskeyRefused, InvalidRequest, PayloadTooLarge),
    dependencies=[limited_by("create")],
)
async def register_passkey(
    name: str,
    body: PasskeyRegistration,
    request: Request,
    accounts: Accounts,
    key: PlayerKeyDep,
) -> Response:
    """Stores the passkey the browser made for the options of
    `POST /players/{name}/passkey-options` (within five minutes, once). Needs one of the
    player's keys as `Authorization: Bearer <key>`."""
    rp = accounts.relying(request.headers.get("host"))
    made = await accounts.register_passkey(
        name, key, body.challenge_id, body.credential, body.name, rp
    )
    out = PasskeyOut(id=made.id, name=made.name, created_at=made.created_at, last_used_at=None)
    return json_response(out, 201)


@router.delete(
    "/{name}/passkeys/{passkey_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Remove one of a player's passkeys",
    responses=problems(*_OWNER, KeyNotFound, InvalidRequest),
    dependencies=[limited_by("create")],
)
async def revoke_passkey(
    name: str, passkey_id: uuid.UUID, accounts: Accounts, key: PlayerKeyDep
) -> Response:
    """Removes a passkey: it signs in no more (the keys it made stay, each revoked on its
    own). Needs one of the player's keys as `Authorization: Bearer <key>`."""
    await accounts.revoke_passkey(name, key, passkey_id)
    return Response(status_code=204)


@sign_in_router.post(
    "/recovery-code",
    status_code=status.HTTP_201_CREATED,
    response_model=NewKeyOut,
    summary="Sign in with a recovery code",
    responses=problems(
        PlayerNotFound,
        InvalidRecoveryCode,
        SignInLimited,
        RateLimited,
        InvalidRequest,
        PayloadTooLarge,
        ServiceUnavailable,
        examples={
            PlayerNotFound: Example("there is no player 'bob'", "/sign-in/recovery-code"),
        },
    ),
    dependencies=[limited_by("create")],
)
async def sign_in_with_recovery_code(
    body: RecoveryCodeSignIn, request: Request, accounts: Accounts
) -> Response:
    """Spends one of the player's recovery codes for a new key (named `key_name`), shown
    only in this response; the code is refused from then on. Failed attempts are limited per
    account and per address (`429 sign_in_limited`); a wrong name answers as the player's
    public page does (`404`)."""
    guard = SignInGuard(request, "name:" + name_key(body.name))
    await guard.check()
    try:
        made = await accounts.recover(body.name, body.code, body.key_name)
    except (InvalidRecoveryCode, PlayerNotFound) as refused:
        await guard.failed()
        log.warning(
            "sign-in refused: recovery code for %r from %s (%s)",
            body.name[:64],
            guard.address,
            refused.code,
        )
        raise
    return json_response(_new_key_out(made), 201)


@sign_in_router.post(
    "/passkey/options",
    response_model=PasskeyCeremony,
    summary="Begin signing in with a passkey",
    responses=problems(RateLimited, ServiceUnavailable),
    dependencies=[limited_by("create")],
)
async def passkey_sign_in_options(request: Request, accounts: Accounts) -> Response:
    """The options of `navigator.credentials.get()`: the browser offers the passkeys it holds
    for this site, whoever's they are."""
    ceremony = await accounts.sign_in_options(accounts.relying(request.headers.get("host")))
    return json_response(
        PasskeyCeremony(challenge_id=ceremony.challenge_id, options=ceremony.options)
    )


@sign_in_router.post(
    "/passkey",
    status_code=status.HTTP_201_CREATED,
    response_model=NewKeyOut,
    summary="Sign in with a passkey",
    responses=problems(
        PasskeyRefused,
        SignInLimited,
        RateLimited,
        InvalidRequest,
        PayloadTooLarge,
        ServiceUnavailable,
    ),
    dependencies=[limited_by("create")],
)
async def sign_in_with_passkey(
    body: PasskeySignIn, request: Request, accounts: Accounts
) -> Response:
    """A new key (named `key_name`) for the account whose passkey answered the options of
    `POST /sign-in/passkey/options`, shown only in this response. Failed attempts are limited
    per passkey and per address (`429 sign_in_limited`)."""
    credential_id = body.credential.get("id")
    guard = SignInGuard(request, f"passkey:{str(credential_id)[:512]}")
    await guard.check()
    rp = accounts.relying(request.headers.get("host"))
    try:
        made = await accounts.passkey_sign_in(body.challenge_id, body.credential, body.key_name, rp)
    except PasskeyRefused as refused:
        await guard.failed()
        log.warning("sign-in refused: passkey from %s (%s)", guard.address, refused.detail)
        raise
    return json_response(_new_key_out(made), 201)


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
