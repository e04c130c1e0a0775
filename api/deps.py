"""Typed dependencies. The session dependencies own the transaction: commit when the route
returns, roll back when it raises, both before the response is sent."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy.orm import Session

from api.db import Database
from api.settings import Settings


def get_database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


DatabaseDep = Annotated[Database, Depends(get_database)]


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def read_session(database: DatabaseDep) -> Iterator[Session]:
    with database.transaction(write=False) as session:
        yield session


def write_session(database: DatabaseDep) -> Iterator[Session]:
    with database.transaction(write=True) as session:
        yield session


# scope="function": the exit code (the commit) runs before the response is sent, so a failed
# commit becomes an error response instead of a success that was never stored.
ReadSessionDep = Annotated[Session, Depends(read_session, scope="function")]
WriteSessionDep = Annotated[Session, Depends(write_session, scope="function")]
