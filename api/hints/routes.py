"""The hint route: the computer player's advice on a game in progress."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response

from api.core.errors import (
    ChallengeHintsRefused,
    GameIsOver,
    GameNotFound,
    HintsBusy,
    InvalidToken,
    MissingToken,
    RaceNotOver,
    RateLimited,
    ServiceUnavailable,
    VersionConflict,
)
from api.core.openapi import header, problems
from api.core.params import TokenDep, service
from api.core.problems import json_response
from api.games import etag
from api.hints.schemas import Hint
from api.hints.service import HintService
from api.ops.ratelimit import limited_by

router = APIRouter(prefix="/games", tags=["games"])

_ETAG_HEADER = {"ETag": header('The game\'s version after the hint, e.g. `"v4"`.')}


Hints = Annotated[HintService, service("hints")]


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
    dependencies=[limited_by("hint")],
)
async def hint(game_id: str, hints: Hints, token: TokenDep) -> Response:
    """Where the computer player would put the current card, with its estimated chance to win
    and expected score (a loss counts 0) for that placement and every other legal one. It
    decides from the public state only, like the player. Needs the game's token. A game that
    asked for a hint is marked `assisted` (its version goes up once) and its win is left off
    the default leaderboard."""
    given, version = await hints.hint(game_id, token)
    return json_response(given, headers={"ETag": etag(version)})
