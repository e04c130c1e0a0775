"""A finished game's analysis: asked for with POST, computed in the background, read with GET."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response, status

from api.analysis.render import analysis_out
from api.analysis.schemas import AnalysisOut
from api.analysis.service import Analysis, AnalysisService
from api.core.errors import AnalysisNotFound, ChallengeDayOpen, GameInProgress, GameNotFound
from api.core.openapi import problem_example, problems
from api.core.problems import json_response
from api.ops.ratelimit import limited_by


async def _service(request: Request) -> AnalysisService:
    service: AnalysisService = request.app.state.analyses
    return service


Analyses = Annotated[AnalysisService, Depends(_service)]

router = APIRouter(prefix="/games", tags=["analysis"])

# How long a client should wait before asking again about an analysis still being computed.
POLL_AFTER_SECONDS = 1

_LOCATION = {"Location": {"description": "`/games/{id}/analysis`", "schema": {"type": "string"}}}
_POLL = {
    **_LOCATION,
    "Retry-After": {
        "description": "Seconds to wait before asking `GET /games/{id}/analysis` again.",
        "schema": {"type": "integer"},
    },
}
_IN_PROGRESS_EXAMPLE = problem_example(
    GameInProgress,
    "the game is still in progress: it can be analysed once it has ended",
    "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/analysis",
)
_DAY_OPEN_EXAMPLE = problem_example(
    ChallengeDayOpen,
    "a game of the 2026-12-01 daily challenge can be analysed once the day closes, at "
    "2026-12-02T00:00:00+00:00",
    "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/analysis",
)
_NOT_FOUND_EXAMPLES = {
    "game_not_found": problem_example(
        GameNotFound, "there is no game 'nope'", "/games/nope/analysis"
    ),
    "analysis_not_found": problem_example(
        AnalysisNotFound,
        "game 0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80 has no analysis: POST "
        "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/analysis to ask for one",
        "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/analysis",
    ),
}
_RUNNING = {
    "model": AnalysisOut,
    "description": "Queued or being computed: `state` and `progress`, no `result` yet. Ask "
    "again after `Retry-After` seconds.",
    "headers": _POLL,
}

_READ_LINK = {
    "ReadAnalysis": {
        "operationId": "read_analysis",
        "description": "Follow the analysis (the `Location`) until it is done.",
        "parameters": {"game_id": "$request.path.game_id"},
    }
}


def _answer(analysis: Analysis) -> Response:
    record = analysis.record
    body = analysis_out(analysis)
    location = f"/games/{record.game_id}/analysis"
    if record.state in ("queued", "running"):
        headers = {"Location": location, "Retry-After": str(POLL_AFTER_SECONDS)}
        return json_response(body, status.HTTP_202_ACCEPTED, headers)
    return json_response(body, headers={"Location": location})


@router.post(
    "/{game_id}/analysis",
    status_code=status.HTTP_202_ACCEPTED,
    response_model=AnalysisOut,
    summary="Ask for a finished game's analysis",
    description=(
        "Queues the analysis of a finished game: each placement judged from what the player "
        "could see at that moment by the computer player (the placement made and the best "
        "one, the loss, a label), and an accuracy for the game. Computed once, in the "
        "background, by one server process; this request never waits for it. `202` with "
        "`Location` while it is queued or running, `200` if it is already done (asking "
        "again never computes it twice; a `failed` one is queued again). Anyone may ask: a "
        "finished game's deck is public. A game in progress is `409 game_in_progress`, a "
        "daily-challenge game before its day closes `409 challenge_day_open`; nothing is queued."
    ),
    responses={
        200: {
            "model": AnalysisOut,
            "description": "Already done (or failed): the analysis.",
            "headers": _LOCATION,
            "links": _READ_LINK,
        },
        202: {**_RUNNING, "links": _READ_LINK},
        **problems(
            404,
            409,
            429,
            503,
            descriptions={
                404: "`game_not_found`: no such game (also for ids that are not UUIDs).",
                409: "`game_in_progress`: the game has not ended; nothing was queued and "
                "nothing about the game is shown. `challenge_day_open`: a daily-challenge "
                "game, whose day has not closed yet.",
            },
            examples={
                404: {"game_not_found": _NOT_FOUND_EXAMPLES["game_not_found"]},
                409: {
                    "game_in_progress": _IN_PROGRESS_EXAMPLE,
                    "challenge_day_open": _DAY_OPEN_EXAMPLE,
                },
            },
        ),
    },
    dependencies=[limited_by("hint")],
)
async def request_analysis(game_id: str, analyses: Analyses) -> Response:
    return _answer(await analyses.request(game_id))


@router.get(
    "/{game_id}/analysis",
    response_model=AnalysisOut,
    summary="Read a game's analysis",
    description=(
        "`200` with the analysis once it is `done` (its `result`) or `failed` (its `error`; "
        "POST again to retry); `202` with `state` (`queued`, `running`) and `progress` "
        "(placements reviewed of the total) while it is computed. `404 analysis_not_found` "
        "if nobody asked for it, `409 game_in_progress` for a game that has not ended."
    ),
    responses={
        200: {
            "model": AnalysisOut,
            "description": "Done (or failed): the analysis.",
            "headers": _LOCATION,
        },
        202: _RUNNING,
        **problems(
            404,
            409,
            429,
            503,
            descriptions={
                404: "`game_not_found`: no such game; `analysis_not_found`: no analysis was "
                "asked for (POST first).",
                409: "`game_in_progress`: the game has not ended; nothing about it is shown. "
                "`challenge_day_open`: a daily-challenge game, whose day has not closed yet.",
            },
            examples={
                404: _NOT_FOUND_EXAMPLES,
                409: {
                    "game_in_progress": _IN_PROGRESS_EXAMPLE,
                    "challenge_day_open": _DAY_OPEN_EXAMPLE,
                },
            },
        ),
    },
    dependencies=[limited_by("read")],
)
async def read_analysis(game_id: str, analyses: Analyses) -> Response:
    return _answer(await analyses.read(game_id))
