"""Probes for orchestrators."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from api.core.openapi import problems
from api.core.schemas import ResponseModel
from api.ops.readiness import ReadinessCheck


class Health(ResponseModel):
    status: Literal["ok"]


class Readiness(ResponseModel):
    status: Literal["ready"]
    database: str = Field(description="The database backend: sqlite or postgresql.")


router = APIRouter(tags=["health"])


@router.get(
    "/healthz",
    summary="Liveness",
    description="Answers as long as the process serves requests; touches no database.",
)
async def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness",
    description="Answers 200 when the database answers a query, 503 otherwise.",
    responses=problems(503),
)
async def readyz(request: Request) -> Readiness:
    readiness: ReadinessCheck = request.app.state.readiness
    return Readiness(status="ready", database=await readiness.check())
