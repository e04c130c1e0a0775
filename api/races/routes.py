"""Races: open, join, start, read and rematch. A race's games are played through
`POST /games/{id}/placements`, and its events stream from `GET /races/{id}/events`
(:mod:`api.events.routes`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Response, status

from api.core.errors import (
    InvalidRequest,
    InvalidToken,
    NameTaken,
    PlayerNameMismatch,
    PlayerNotFound,
    RaceNotFound,
    RaceNotOpen,
    RateLimited,
    ServiceUnavailable,
)
from api.core.openapi import header, problems
from api.core.params import BearerSecret, PlayerKeyDep, service
from api.core.problems import json_response
from api.ops.ratelimit import limited_by
from api.races.schemas import PlayerRaces, RaceCreate, RaceCreated, RaceOut, RacerIn
from api.races.service import RaceService

Races = Annotated[RaceService, service("races")]
racer = BearerSecret(
    scheme_name="RacerToken",
    description="A guest racer's `racer_token`, or a registered racer's `key`.",
    auto_error=False,
)
RacerDep = Annotated[str | None, Depends(racer)]

router = APIRouter(prefix="/races", tags=["races"])
_CREATED: dict[int | str, dict[str, Any]] = {201: {"headers": {"Location": header("/races/{id}")}}}
_JOIN_ERRORS = (
    InvalidToken,
    NameTaken,
    PlayerNameMismatch,
    InvalidRequest,
    RateLimited,
    ServiceUnavailable,
)


def _created(race: RaceCreated) -> Response:
    return json_response(race, status.HTTP_201_CREATED, {"Location": f"/races/{race.id}"})


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=RaceCreated,
    summary="Open a race",
    openapi_extra={"security": [{}]},
    responses={**_CREATED, **problems(*_JOIN_ERRORS)},
    dependencies=[limited_by("create")],
)
async def open_race(
    races: Races, key: PlayerKeyDep, body: Annotated[RaceCreate | None, Body()] = None
) -> Response:
    """Opens a race, in its lobby: a shared deal whose `deck_commitment` is published now and
    revealed when the race is over. The opener is its first racer (a guest gets its
    `racer_token`; an account sends its key, as for `POST /games`), and the computer its
    second with `computer: true`. Others join with `POST /races/{id}/racers` until it is
    full (it then starts by itself) or the opener starts it."""
    return _created(await races.open(body or RaceCreate(), key))


@router.post(
    "/{race_id}/racers",
    status_code=status.HTTP_201_CREATED,
    response_model=RaceCreated,
    summary="Join a race",
    openapi_extra={"security": [{}]},
    responses={
        **_CREATED,
        **problems(RaceNotFound, RaceNotOpen, *_JOIN_ERRORS, ServiceUnavailable),
    },
    dependencies=[limited_by("create")],
)
async def join_race(
    race_id: str, races: Races, key: PlayerKeyDep, body: Annotated[RacerIn | None, Body()] = None
) -> Response:
    """Joins a race in its lobby (`409 race_not_open` once it has started or is full; `409
    name_taken` for a name racing in it already). The race starts by itself when this fills
    its last seat."""
    return _created(await races.join(race_id, body or RacerIn(), key))


@router.post(
    "/{race_id}/start",
    response_model=RaceOut,
    summary="Start a race",
    responses=problems(RaceNotFound, RaceNotOpen, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("create")],
)
async def start_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """Starts a race from its lobby, with two racers at least: its opener's only (`403`
    otherwise). A countdown of a few seconds follows, to `starts_at`, when each racer's game
    of the deal is dealt; from then on `GET /races/{id}` shows each racer its `your_game`."""
    return json_response(await races.start(race_id, credential))


@router.get(
    "/{race_id}",
    response_model=RaceOut,
    summary="Read a race",
    openapi_extra={"security": [{}]},
    responses=problems(RaceNotFound, InvalidToken, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def read_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """A race as anyone may see it: its status, times and racers with counts only (placements
    made, face-down piles, cards left, state), ranked once it is over, with the deal's
    `reveal`. A racer who sends their credential also gets `you` and, once the race has
    started, `your_game`: play it through `POST /games/{id}/placements` as any game. Until
    the race ends every racer's game is its racer's only (`403 race_game_private` to anybody
    else) and gets no hints."""
    return json_response(await races.read(race_id, credential))


@router.post(
    "/{race_id}/rematch",
    response_model=RaceOut,
    summary="Ask for a rematch",
    responses={
        200: {"description": "The rematch another racer opened already."},
        **_CREATED,
        **problems(RaceNotFound, RaceNotOpen, InvalidToken, RateLimited, ServiceUnavailable),
    },
    dependencies=[limited_by("create")],
)
async def rematch_race(race_id: str, races: Races, credential: RacerDep) -> Response:
    """Opens the next race for the same racers, with a new deal, once this one is over (a
    racer's credential): `201` for the racer who opened it, `200` with the same race for
    the others; the old race's `next_race` names it. Its racers are in its lobby, with the
    same credentials."""
    race, opened = await races.rematch(race_id, credential)
    code = status.HTTP_201_CREATED if opened else status.HTTP_200_OK
    return json_response(race, code, {"Location": f"/races/{race.id}"})


players_router = APIRouter(prefix="/players", tags=["players"])


@players_router.get(
    "/{name}/races",
    response_model=PlayerRaces,
    summary="List a player's races",
    responses=problems(PlayerNotFound, RateLimited, ServiceUnavailable),
    dependencies=[limited_by("read")],
)
async def list_player_races(name: str, races: Races) -> Response:
    """A registered player's races: how many they finished (`races_played`) and won
    (`races_won`, ranked first), and their last 100 races, newest first, with their rank in
    each finished one. The name matches in any case or width."""
    return json_response(await races.of_player(name))
