"""Probes for orchestrators."""

from __future__ import annotations

from fastapi import APIRouter

from api import services
from api.deps import DatabaseDep
from api.routes.docs import problems
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
def readyz(database: DatabaseDep) -> Readiness:
    with database.transaction(write=False) as session:
        services.check_database(session)
    return Readiness(status="ready", database=database.read_engine.dialect.name)
