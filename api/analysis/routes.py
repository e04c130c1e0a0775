"""A finished game's analysis: asked for with POST, computed in the background, read with GET."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Response, status

from api.analysis.errors import AnalysisNotFound, ChallengeDayOpen, GameInProgress
from api.analysis.schemas import AnalysisOut
from api.analysis.service import AnalysisService
from api.core.errors import Example, ServiceUnavailable
from api.core.openapi import header, problems
from api.core.params import service
from api.core.problems import json_response
from api.games import GameNotFound, RaceNotOver
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by

_NOT_FOUND = Example(GameNotFound.example_detail(), "/games/nope/analysis")


Analyses = Annotated[AnalysisService, service("analyses")]

router = APIRouter(prefix="/games", tags=["analysis"])

# How long a client should wait before asking again about an analysis still being computed.
POLL_AFTER_SECONDS = 1

_LOCATION = {"Location": header("`/games/{id}/analysis`")}
_RUNNING = {
    "model": AnalysisOut,
    "description": "Queued or being computed: `state` and `progress`, no `result` yet. Ask "
    "again after `Retry-After` seconds.",
    "headers": {
        **_LOCATION,
        "Retry-After": header(
            "Seconds to wait before asking `GET /games/{id}/analysis` again.", "integer"
        ),
    },
}

_READ_LINK = {
    "ReadAnalysis": {
        "operationId": "read_analysis",
        "description": "Follow the analysis (the `Location`) until it is done.",
        "parameters": {"game_id": "$request.path.game_id"},
    }
}


def _answer(analysis: AnalysisOut) -> Response:
    headers = {"Location": f"/games/{analysis.game_id}/analysis"}
    if analysis.state in ("queued", "running"):
        headers["Retry-After"] = str(POLL_AFTER_SECONDS)
        return json_response(analysis, status.HTTP_202_ACCEPTED, headers)
    return json_response(analysis, headers=headers)


@router.post(
    "/{game_id}/analysis",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=AnalysisOut,
    summary="Ask for a finished game's analysis",
    responses={
        200: {
            "model": AnalysisOut,
            "description": "Already done (or failed): the analysis.",
            "headers": _LOCATION,
            "links": _READ_LINK,
        },
        202: {**_RUNNING, "links": _READ_LINK},
        **problems(
            GameNotFound,
            GameInProgress,
            ChallengeDayOpen,
            RaceNotOver,
            RateLimited,
            ServiceUnavailable,
            examples={GameNotFound: _NOT_FOUND},
        ),
    },
    dependencies=[limited_by("hint")],
)
async def request_analysis(game_id: str, analyses: Analyses) -> Response:
    """Queues the analysis of a finished game: each placement judged from what the player
    could see at that moment by the computer player (the placement made and the best one, the
    loss, a label), and an accuracy for the game. Computed once, in the background, by one
    server process; this request never waits for it. `202` with `Location` while it is queued
    or running, `200` if it is already done (asking again never computes it twice; a `failed`
    one is queued again). Anyone may ask: a finished game's deck is public. A game in progress
    is `409 game_in_progress`, a daily-challenge game before its day closes
    `409 challenge_day_open`; nothing is queued."""
    return _answer(await analyses.request(game_id))


@router.get(
    "/{game_id}/analysis",
    response_model=AnalysisOut,
    summary="Read a game's analysis",
    responses={
        200: {
            "model": AnalysisOut,
            "description": "Done (or failed): the analysis.",
            "headers": _LOCATION,
        },
        202: _RUNNING,
        **problems(
            GameNotFound,
            AnalysisNotFound,
            GameInProgress,
            ChallengeDayOpen,
            RaceNotOver,
            RateLimited,
            ServiceUnavailable,
            examples={GameNotFound: _NOT_FOUND},
        ),
    },
    dependencies=[limited_by("read")],
)
async def read_analysis(game_id: str, analyses: Analyses) -> Response:
    """`200` with the analysis once it is `done` (its `result`) or `failed` (its `error`; POST
    again to retry); `202` with `state` (`queued`, `running`) and `progress` (placements
    reviewed of the total) while it is computed. `404 analysis_not_found` if nobody asked for
    it, `409 game_in_progress` for a game that has not ended."""
    return _answer(await analyses.read(game_id))
