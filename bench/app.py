"""The service plus one benchmark-only route, ``POST /bench/write``: the floor of any request
that must persist something.

``uvicorn --factory bench.app:create_bench_app`` serves every route of
:func:`api.app.create_app` unchanged, and ``POST /bench/write`` (body ``{"key": n}``), which in
one write transaction of the service's own database (``Database.write``, as the service's writes)
increments one row of ``bench_rows`` and inserts one row into ``bench_events``, then answers
``201 {"key", "value"}``. The two tables have their own ``MetaData`` (they are not part of the
service's schema or migrations) and are created when the app starts. The route is mounted only
here, never in the service.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI, Request, status
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Column, Integer, MetaData, Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.app import create_app
from api.core.database import Database
from api.ops.logs import configure_logging
from api.settings import Settings

BENCH_ROWS = 1024  # writes spread over this many rows, as placements spread over games

bench_metadata = MetaData()
bench_rows = Table(
    "bench_rows",
    bench_metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("value", Integer, nullable=False),
)
bench_events = Table(
    "bench_events",
    bench_metadata,
    Column("id", Integer, primary_key=True),
    Column("row_id", Integer, nullable=False),
    Column("value", Integer, nullable=False),
)


class BenchWriteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: int = Field(ge=0, description=f"Which row to update (modulo {BENCH_ROWS}).")


class BenchWriteOut(BaseModel):
    model_config = ConfigDict(frozen=True)

    key: int
    value: int


def prepare_tables(database: Database) -> None:
    """Create the benchmark tables and their rows if missing (safe to race with a sibling)."""
    try:
        with database.write_engine.begin() as connection:
            bench_metadata.create_all(connection)
            if connection.scalar(select(func.count()).select_from(bench_rows)) == 0:
                connection.execute(
                    insert(bench_rows), [{"id": i, "value": 0} for i in range(BENCH_ROWS)]
                )
    except IntegrityError:
        pass  # another worker of the same server got there first


# Built once and run with parameters, as the service's own writes (its store modules).
_INCREMENT = (
    update(bench_rows)
    .where(bench_rows.c.id == bindparam("row_id"))
    .values(value=bench_rows.c.value + 1)
    .returning(bench_rows.c.value)
)
_RECORD = insert(bench_events)


def write_one(session: Session, key: int) -> int:
    """Update one row and insert one row; return the row's new value."""
    row_id = key % BENCH_ROWS
    connection = session.connection()
    value: int = connection.execute(_INCREMENT, {"row_id": row_id}).scalar_one()
    connection.execute(_RECORD, {"row_id": row_id, "value": value})
    return value


def create_bench_app(settings: Settings | None = None) -> FastAPI:
    """The service's app with ``POST /bench/write`` added; factory for ``uvicorn --factory``."""
    app = create_app(settings)
    service_lifespan = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service_lifespan(app):
            prepare_tables(app.state.database)
            yield

    app.router.lifespan_context = lifespan
    router = APIRouter(prefix="/bench", tags=["bench"])

    @router.post("/write", status_code=status.HTTP_201_CREATED, summary="Benchmark write floor")
    async def bench_write(body: BenchWriteIn, request: Request) -> BenchWriteOut:
        # The same machinery as the service's writes: one write transaction of the service's
        # database through Database.write (its turn, then a worker thread), as placements and
        # game creations take it.
        database: Database = request.app.state.database
        value = await database.write(lambda session: write_one(session, body.key))
        return BenchWriteOut(key=body.key, value=value)

    app.include_router(router)
    return app


def create_logged_bench_app() -> FastAPI:
    """:func:`create_bench_app`, logging as the deployed service does (api.ops.logs, as
    ``app_from_environment``): what the request line costs (http_load.py --request-log)."""
    settings = Settings()
    configure_logging(settings)
    return create_bench_app(settings)
