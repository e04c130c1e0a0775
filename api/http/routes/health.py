"""Probes for orchestrators."""

from __future__ import annotations

from fastapi import APIRouter

from api.games.games import check_database
from api.http.deps import DatabaseDep
from api.http.openapi import problems
from api.schemas import Health, Readiness

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
async def readyz(database: DatabaseDep) -> Readiness:
    await database.read(check_database)
    return Readiness(status="ready", database=database.read_engine.dialect.name)
