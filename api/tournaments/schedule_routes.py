"""The operators' schedules of tournaments: an operator credential for each route (a key of
``FOURSQUARE_OPERATOR_KEYS``, as the moderators'; a player's key gets ``403``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Response, status

from api.accounts import MissingToken
from api.core.errors import InvalidRequest, PayloadTooLarge, ServiceUnavailable
from api.core.openapi import header, problems
from api.core.params import service
from api.core.problems import json_response
from api.fairplay import NotAModerator, OperatorKey
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by
from api.tournaments.errors import ScheduleNotFound
from api.tournaments.schedule_schemas import ScheduleIn, ScheduleList, ScheduleOut
from api.tournaments.schedules import ScheduleService

Schedules = Annotated[ScheduleService, service("tournament_schedules")]

router = APIRouter(prefix="/tournament-schedules", tags=["tournaments"])

_REFUSALS = (MissingToken, NotAModerator, RateLimited, ServiceUnavailable)
_CREATED: dict[int | str, dict[str, Any]] = {
    201: {"headers": {"Location": header("/tournament-schedules/{id}")}}
}


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=ScheduleOut,
    summary="Schedule recurring tournaments",
    responses={**_CREATED, **problems(InvalidRequest, PayloadTooLarge, *_REFUSALS)},
    dependencies=[limited_by("create")],
)
async def create_tournament_schedule(
    body: ScheduleIn, key: OperatorKey, schedules: Schedules
) -> Response:
    """From now on a tournament starts at each time of `cron` (UTC), each announced
    `announce_ahead_minutes` before its start (`GET /tournaments` lists it from then on, open
    to entrants). `422` for a cron expression `croniter` refuses (its reason in `errors`) or
    one that fires more often than `duration_minutes` (the tournaments would overlap)."""
    schedule = await schedules.create(key, body)
    return json_response(schedule, 201, {"Location": f"/tournament-schedules/{schedule.id}"})


@router.get(
    "",
    response_model=ScheduleList,
    summary="List the schedules of tournaments",
    responses=problems(*_REFUSALS),
    dependencies=[limited_by("read")],
)
async def list_tournament_schedules(key: OperatorKey, schedules: Schedules) -> Response:
    """Every schedule, oldest first: the operators' and the settings' ones, the deleted ones
    too (with their `cancelled_at`)."""
    return json_response(await schedules.listing(key))


@router.get(
    "/{schedule_id}",
    response_model=ScheduleOut,
    summary="Read a schedule of tournaments",
    responses=problems(ScheduleNotFound, *_REFUSALS),
    dependencies=[limited_by("read")],
)
async def read_tournament_schedule(
    schedule_id: str, key: OperatorKey, schedules: Schedules
) -> Response:
    """A schedule, and its `next_start`."""
    return json_response(await schedules.read(key, schedule_id))


@router.delete(
    "/{schedule_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    summary="Stop a schedule of tournaments",
    responses=problems(ScheduleNotFound, *_REFUSALS),
    dependencies=[limited_by("create")],
)
async def delete_tournament_schedule(
    schedule_id: str, key: OperatorKey, schedules: Schedules
) -> Response:
    """It announces no more tournaments; those it announced stay as they are (an operator
    cancels one with `POST /tournaments/{id}/cancel`). A schedule of
    `FOURSQUARE_TOURNAMENT_SCHEDULES` is set again by the next server start: take it out of
    the setting to stop it for good."""
    await schedules.delete(key, schedule_id)
    return Response(status_code=204)
