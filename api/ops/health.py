"""Probes for orchestrators."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request, Response
from pydantic import Field

from api.core.errors import ServiceUnavailable
from api.core.openapi import problems
from api.core.params import DirectRoute
from api.core.schemas import ResponseModel
from api.ops.readiness import ReadinessCheck


class Health(ResponseModel):
    status: Literal["ok"]


class Readiness(ResponseModel):
    status: Literal["ready"]
    database: str = Field(description="The database backend: sqlite or postgresql.")


# DirectRoute: /healthz has no parameter to solve, and probes call it every few seconds.
router = APIRouter(tags=["health"], route_class=DirectRoute)

_HEALTHY = Health(status="ok").model_dump_json().encode()  # the one answer, made once


@router.get("/healthz", summary="Liveness", response_model=Health)
async def healthz() -> Response:
    """Answers as long as the process serves requests; touches no database."""
    return Response(_HEALTHY, media_type="application/json")


@router.get(
    "/readyz",
    summary="Readiness",
    responses=problems(ServiceUnavailable),
)
async def readyz(request: Request) -> Readiness:
    """Answers 200 when the database answers a query, 503 otherwise."""
    readiness: ReadinessCheck = request.app.state.readiness
    return Readiness(status="ready", database=await readiness.check())
