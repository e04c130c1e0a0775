"""Games and placements."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Body, Response, status
from sqlalchemy.orm import Session

from api.errors import (
    ApiError,
    ChallengeAlreadyPlayed,
    ChallengeClosed,
    ChallengeGamePrivate,
    ChallengeHintsRefused,
    NameTaken,
    PlayerKeyRequired,
    PlayerNameMismatch,
)
from api.games import challenges, hints, idempotency, placements, players, views
from api.games.conditional import etag, if_none_match_hits
from api.games.credentials import player_key_owner
from api.games.games import (
    LoadedGame,
    NewGame,
    authorize,
    load_game,
    new_game,
    read_public_view,
    store_new_game,
)
from api.games.games import create_game as deal_and_store
from api.games.idempotency import StoredResponse
from api.games.views import game_created, placement_out, position_out
from api.http.deps import (
    AdvicePoolDep,
    ChallengeSecretDep,
    CreationKey,
    DatabaseDep,
    IfMatch,
    IfNoneMatch,
    PlacementKey,
    PlayerKeyDep,
    SettingsDep,
    TokenDep,
)
from api.http.errors import PROBLEM_MEDIA_TYPE, api_error_response, json_response
from api.http.openapi import problem_example, problems
from api.http.ratelimit import limited_by
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

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
PRIVATE = "private, no-cache"  # a daily challenge game while its day is open

_ETAG_HEADER = {
    "ETag": {
        "description": "The game's version, e.g. `\"v3\"`; a won game's also names its rank, "
        'e.g. `"v21.r42"`.',
        "schema": {"type": "string"},
    }
}
_CACHE_HEADER = {
    "Cache-Control": {
        "description": "`public, max-age=31536000, immutable` once the game is lost (it never "
        "changes again); `no-cache` before, and for a won game, whose rank moves (revalidate "
        "with the ETag).",
        "schema": {"type": "string"},
    }
}
_REPLAYED_HEADER = {
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored response of an earlier request.",
        "schema": {"type": "string"},
    }
}

_PRIVATE = {
    403: "`challenge_game_private`: a daily challenge game whose day has not closed, read "
    "without its token or its player's key (it is its player's only until then).",
}
_PRIVATE_EXAMPLE = {
    403: {
        "challenge_game_private": problem_example(
            ChallengeGamePrivate,
            "this daily challenge game is visible to its player only until its day closes "
            "(2026-12-02T00:00:00+00:00); its player sends the game's token or their key as "
            "'Authorization: Bearer <token>'",
            "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
        )
    }
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=GameCreated,
    summary="Start a game",
    # The player's key is optional (guests play without one): FastAPI lists the PlayerKey
    # requirement, and this adds the empty one ("or nothing") after it.
    openapi_extra={"security": [{}]},
    description=(
        "Deals a fresh, secretly shuffled deck and draws the first card. The answer holds the "
        "game and its `token`, which authorises placements and is shown only in this response "
        "(and in replays of it under the same `Idempotency-Key`). The `Location` header points "
        "at the new game. `deck_commitment` fixes the deal: the deck and the salt behind it are "
        "revealed when the game ends. With a registered player's key as "
        "`Authorization: Bearer <key>`, the game is that player's (its `player` is the "
        "account's name, and the key also authorises its placements and hints); without "
        "one it is a guest's, under any name that is no account's. "
        '`{"challenge": "daily"}` (with a player\'s key) deals today\'s daily challenge '
        "instead: the same deal for every player, whose `deck_commitment` is the day's "
        "(`GET /challenges/today`); one attempt per player per UTC day, played without hints, "
        "finished before the day closes, private to its player and without its reveal until "
        "then."
    ),
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
        **problems(
            401,
            403,
            409,
            413,
            422,
            429,
            503,
            descriptions={
                401: "`player_key_required`: `challenge: daily` without a player's key.",
                403: "`invalid_token`: the bearer is not a registered player's current key.",
                409: "`name_taken`: a guest's `player` is a registered player's name "
                "(ignoring case, width and invisible characters); `request_in_progress`: a "
                "request with the same `Idempotency-Key` is still running; "
                "`challenge_already_played`: the key's player has already started today's "
                "daily challenge (one attempt per player per UTC day; `game_id` names it).",
                422: "`invalid_request` (malformed input; see `errors`), "
                "`player_name_mismatch` (a `player` other than the key's account), or "
                "`idempotency_key_reused`.",
            },
            examples={
                401: {
                    "player_key_required": problem_example(
                        PlayerKeyRequired,
                        "the daily challenge is for registered players: send your key as "
                        "'Authorization: Bearer <key>' (register with POST /players)",
                        "/games",
                    )
                },
                409: {
                    "name_taken": problem_example(
                        NameTaken,
                        "'ANA' is a registered player's name: send their key as "
                        "'Authorization: Bearer <key>', or play under another name",
                        "/games",
                    ),
                    "challenge_already_played": problem_example(
                        ChallengeAlreadyPlayed,
                        "you have already played the daily challenge of 2026-12-01 (game "
                        "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80); the next one opens at "
                        "2026-12-02T00:00:00+00:00",
                        "/games",
                    ),
                },
                422: {
                    "player_name_mismatch": problem_example(
                        PlayerNameMismatch,
                        "the key belongs to 'ana', not 'bob': omit 'player' or send the "
                        "account's name",
                        "/games",
                    )
                },
            },
        ),
    },
    dependencies=[limited_by("create")],
)
async def create_game(
    database: DatabaseDep,
    key: PlayerKeyDep,
    challenge_secret: ChallengeSecretDep,
    idempotency_key: CreationKey = None,
    body: Annotated[GameCreate | None, Body()] = None,
) -> Response:
    # The body's name if it gave one (an absent name means "the key's account", or a guest).
    requested = body.player if body is not None and "player" in body.model_fields_set else None
    daily = body is not None and body.challenge == "daily"
    if daily:
        challenges.require_key(key)
    if daily and idempotency_key is None:
        stored = await database.write(
            lambda session: challenges.start_challenge_game(
                session, challenge_secret, key, requested
            )
        )
        return _to_response(_created_response(stored))
    if idempotency_key is None:
        # Deal before taking a turn to write: the transaction only inserts (and counts the
        # game in its player's stats).
        # A guest's name is checked in the write (store_new_game); only a key needs a read.
        who = (
            players.Identity(requested or "anonymous", None)
            if key is None
            else await database.read(lambda session: players.identify(session, key, requested))
        )
        created = new_game(who.name, player_id=who.player_id)
        stored = await database.write(lambda session: store_new_game(session, created))
        return _to_response(_created_response(stored))

    def create_for(session: Session) -> NewGame:
        if daily:
            return challenges.start_challenge_game(session, challenge_secret, key, requested)
        who = players.identify(session, key, requested)
        return deal_and_store(session, who.name, player_id=who.player_id)

    # The key's account is part of the request: the same Idempotency-Key sent with another
    # player's key (or none) is another request.
    owner = player_key_owner(key) if key is not None else None
    if key is not None:
        # A replay hands back the game's token, so it needs the account's current key, like
        # the first request: a key rotated out since is refused, not replayed to.
        await database.read(lambda session: players.authenticate(session, key))
    player = requested if requested is not None else "anonymous"

    def keyed() -> tuple[StoredResponse, bool]:
        return idempotency.execute(
            database,
            scope="games",
            key=idempotency_key,
            request_fingerprint=idempotency.fingerprint(
                "POST",
                "/games",
                {"player": player}
                if key is None
                else {"player": requested, "account": owner.hex if owner else None}
                # (only when asked: the fingerprints of other creations stay as they were)
                | ({"challenge": "daily"} if daily else {}),
            ),
            work=create_for,
            render=_created_response,
            render_error=_error_response("/games"),
        )

    return _to_response(*await database.in_write_turn(keyed))


def _created_response(created: NewGame) -> StoredResponse:
    out = game_created(created.row, created.game, created.token)
    return StoredResponse(
        201,
        out.model_dump_json().encode(),
        {"Location": f"/games/{created.row.id}", "ETag": etag(created.row.version)},
    )


def _error_response(instance: str) -> Callable[[ApiError], StoredResponse]:
    def render(exc: ApiError) -> StoredResponse:
        rendered = api_error_response(exc, instance)
        return StoredResponse(
            exc.status, bytes(rendered.body), dict(exc.headers), PROBLEM_MEDIA_TYPE
        )

    return render


def _to_response(stored: StoredResponse, replayed: bool = False) -> Response:
    headers = dict(stored.headers)
    if replayed:
        headers["Idempotent-Replayed"] = "true"
    return Response(stored.body, stored.status, headers=headers, media_type=stored.media_type)


@router.get(
    "/{game_id}",
    response_model=GameOut,
    summary="Read a game",
    description=(
        "The game as anyone may see it: piles, current card, legal placements, status and "
        "score. Reading is public; the order of the stock is never shown while the game is in "
        "progress. Send the `ETag` back in `If-None-Match` to get `304` while nothing changed. "
        "A daily challenge game is its player's only (their token or key) until its day "
        "closes, and shows its `reveal` only from then on (its ETag ends in `-sealed` while "
        "it is over but sealed; `Cache-Control: private, no-cache`)."
    ),
    openapi_extra={"security": [{}]},
    responses={
        200: {"headers": {**_ETAG_HEADER, **_CACHE_HEADER}},
        304: {"description": "Not modified since the ETag in `If-None-Match`."},
        **problems(403, 404, 429, 503, descriptions=_PRIVATE, examples=_PRIVATE_EXAMPLE),
    },
    dependencies=[limited_by("read")],
)
async def read_game(
    game_id: str, database: DatabaseDep, token: TokenDep, if_none_match: IfNoneMatch = None
) -> Response:
    read = await read_public_view(database, game_id, token)
    # A lost game never changes again; a game in progress is revalidated with its ETag, and
    # so is a won one: its rank moves as better games finish, and its ETag names the rank.
    final = read.over and read.rank is None
    tag = f"v{read.version}"
    cache = IMMUTABLE if final else REVALIDATE
    if read.sealed:
        # A daily challenge game of a day still open is its player's only, and once over it
        # gains its reveal when the day closes without changing version: another ETag then.
        cache = PRIVATE
        if read.over:
            tag += "-sealed"
    if read.rank is not None:
        tag += f".r{read.rank}"
    headers = {"ETag": f'"{tag}"', "Cache-Control": cache}
    if if_none_match_hits(if_none_match, headers["ETag"]):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(read.json, media_type="application/json", headers=headers)


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
    responses={
        201: {
            "headers": {**_ETAG_HEADER, **_REPLAYED_HEADER},
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
            401,
            403,
            404,
            409,
            412,
            413,
            422,
            429,
            503,
            descriptions={
                409: "`game_over`: the game has ended; `version_conflict`: another placement "
                "won the race; `request_in_progress`: a request with the same "
                "`Idempotency-Key` is still running; `challenge_closed`: a daily challenge "
                "game whose day has closed (its deal is public now) takes no more placements.",
            },
            examples={
                409: {
                    "challenge_closed": problem_example(
                        ChallengeClosed,
                        "the daily challenge of 2026-12-01 closed at 2026-12-02T00:00:00+00:00: "
                        "its games take no more placements",
                        "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/placements",
                    )
                }
            },
        ),
    },
    dependencies=[limited_by("place")],
)
async def place_card(
    game_id: str,
    body: PlacementIn,
    database: DatabaseDep,
    token: TokenDep,
    if_match: IfMatch = None,
    idempotency_key: PlacementKey = None,
) -> Response:
    if idempotency_key is None:
        placed = await placements.place_card(database, game_id, token, body.row, body.col, if_match)
        return _to_response(_placement_response(placed))

    def keyed() -> tuple[StoredResponse, bool]:
        # Only the game's player may replay its placements: the token is checked first.
        with database.reading() as connection:
            game = load_game(connection, game_id)
        authorize(game.row, token)
        return idempotency.execute(
            database,
            scope=f"game:{game.row.id.hex}",
            key=idempotency_key,
            request_fingerprint=idempotency.fingerprint("POST", "placements", body.model_dump()),
            work=lambda session: placements.place_in(
                session, game_id, token, body.row, body.col, if_match
            ),
            render=_placement_response,
            render_error=_error_response(f"/games/{game_id}/placements"),
        )

    return _to_response(*await database.in_write_turn(keyed))


def _placement_response(placed: placements.PlacedCard) -> StoredResponse:
    body = PlacementCreated.model_construct(
        placement=placement_out(placed.placement),
        game=views.game_out(placed.row, placed.game, placed.rank),
    )
    return StoredResponse(201, body.model_dump_json().encode(), {"ETag": etag(placed.row.version)})


@router.get(
    "/{game_id}/placements",
    response_model=PlacementHistory,
    summary="Read a game's history",
    description="Every placement of the game, first to last, with what each one flipped. "
    "A daily challenge game's history is its player's only (their token or key) until its "
    "day closes.",
    openapi_extra={"security": [{}]},
    responses={
        200: {"headers": {**_ETAG_HEADER, **_CACHE_HEADER}},
        304: {"description": "Not modified since the ETag in `If-None-Match`."},
        **problems(403, 404, 429, 503, descriptions=_PRIVATE, examples=_PRIVATE_EXAMPLE),
    },
    dependencies=[limited_by("read")],
)
async def list_placements(
    game_id: str, database: DatabaseDep, token: TokenDep, if_none_match: IfNoneMatch = None
) -> Response:
    game_uuid, rows, private = await placements.history(database, game_id, token)
    # A history only ever grows by one placement at a time: its length names it.
    headers = {"ETag": f'"p{len(rows)}"', "Cache-Control": PRIVATE if private else REVALIDATE}
    if if_none_match_hits(if_none_match, headers["ETag"]):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers=headers)
    history = PlacementHistory.model_construct(
        game_id=game_uuid, placements=[placement_out(row) for row in rows]
    )
    return json_response(history, headers=headers)


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
    responses={
        200: {"headers": _ETAG_HEADER},
        **problems(
            401,
            403,
            404,
            409,
            429,
            503,
            descriptions={
                403: "`invalid_token`: the token does not belong to this game; "
                "`challenge_no_hints`: a daily challenge game is played without hints (it "
                "is left unchanged).",
            },
            examples={
                403: {
                    "challenge_no_hints": problem_example(
                        ChallengeHintsRefused,
                        "the daily challenge is played without hints; this game was not changed",
                        "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/hint",
                    )
                }
            },
        ),
    },
    dependencies=[limited_by("hint")],
)
async def hint(
    game_id: str,
    database: DatabaseDep,
    settings: SettingsDep,
    pool: AdvicePoolDep,
    token: TokenDep,
) -> Response:
    loaded: LoadedGame = await database.read(lambda session: load_game(session, game_id))
    authorize(loaded.row, token)
    budget = Budget(placements=settings.hint_placements, milliseconds=settings.hint_max_ms)
    advice = await hints.pooled_hint(pool, loaded, budget)
    version = await database.write(lambda session: hints.mark_assisted(session, loaded))
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
