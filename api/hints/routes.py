"""The hint route: the computer player's advice on a game in progress."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response

from api.accounts import InvalidToken, MissingToken
from api.core.errors import ServiceUnavailable
from api.core.openapi import header, problems
from api.core.params import TokenDep, service
from api.core.problems import json_response
from api.games import GameIsOver, GameNotFound, RaceNotOver, VersionConflict, etag
from api.hints.errors import ChallengeHintsRefused, HintsBusy
from api.hints.pool import Keys
from api.hints.schemas import Hint
from api.hints.service import HintService
from api.ops.errors import RateLimited
from api.ops.ratelimit import client_of, rate_limit

router = APIRouter(prefix="/games", tags=["games"])

_ETAG_HEADER = {"ETag": header('The game\'s version after the hint, e.g. `"v4"`.')}


Hints = Annotated[HintService, service("hints")]
_count_hint = rate_limit("hint")


@dataclass(frozen=True)
class Asker:
    """Who asks for a hint: the keys its place in the workers' pool is held under (its
    address, and its credential's key), and its request, counted by the rate limits once it
    has a place."""

    keys: Keys
    request: Request


async def asker(request: Request) -> Asker:
    address, credential = client_of(request, request.app.state.settings.trusted_proxies)
    keys: Keys = (("address", address),)
    if credential is not None:
        keys += (("credential", credential),)
    return Asker(keys, request)


@router.get(
    "/{game_id}/hint",
    response_model=Hint,
    summary="Ask the computer player for a hint",
    responses={
        200: {"headers": _ETAG_HEADER},
        **problems(
            MissingToken,
            InvalidToken,
            ChallengeHintsRefused,
            RaceNotOver,
            GameNotFound,
            GameIsOver,
            VersionConflict,
            RateLimited,
            ServiceUnavailable,
            HintsBusy,
        ),
    },
)
async def hint(
    game_id: str, hints: Hints, token: TokenDep, who: Annotated[Asker, Depends(asker)]
) -> Response:
    """Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard. A client (an address, a token) holds at most its share of the
    hint workers; beyond it, or when they are all taken, `503 hints_busy`, which does not
    count against its rate limit."""
    # A place first, then the rate limit: a refusal for capacity must not spend the client's
    # quota (it did: a bystander refused 27 times was then refused for its rate limit too).
    place = hints.admit(who.keys)
    try:
        await _count_hint(who.request)
        given, version = await hints.hint(game_id, token, place)
    finally:
        hints.release(place)
    return json_response(given, headers={"ETag": etag(version)})
