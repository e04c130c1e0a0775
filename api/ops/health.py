"""Probes for orchestrators."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from pydantic import Field

from api.core.errors import ServiceUnavailable
from api.core.openapi import problems
from api.core.schemas import ResponseModel
from api.ops.readiness import ReadinessCheck


class Health(ResponseModel):
    status: Literal["ok"]


class Readiness(ResponseModel):
    status: Literal["ready"]
    database: str = Field(description="The database backend: sqlite or postgresql.")


router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness")
async def healthz() -> Health:
    """Answers as long as the process serves requests; touches no database."""
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness",
    responses=problems(ServiceUnavailable),
)
async def readyz(request: Request) -> Readiness:
    """Answers 200 when the database answers a query, 503 otherwise."""
    readiness: ReadinessCheck = request.app.state.readiness
    return Readiness(status="ready", database=await readiness.check())
