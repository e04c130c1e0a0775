"""Typed dependencies.

They are ``async`` and cheap, so FastAPI calls them on the event loop: a route then costs one
hop to the thread pool (its own body), not three (a session dependency's enter and exit, and
the route). Routes open their transaction themselves with ``database.transaction(...)``, which
commits before the route returns, so a failed commit is an error response, never a success
that was not stored.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from api.db import Database
from api.pages import PageCache
from api.settings import Settings


async def get_database(request: Request) -> Database:
    database: Database = request.app.state.database
    return database


DatabaseDep = Annotated[Database, Depends(get_database)]


def database_of(request: Request) -> Database:
    """What ``DatabaseDep`` gives, for the public reads: each FastAPI dependency costs a
    request about 130,000 CPU instructions (FastAPI 0.165; ``bench/request_cost.py``), more
    than the rest of a read from SQLite, and these routes take the request anyway."""
    database: Database = request.app.state.database
    return database


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


SettingsDep = Annotated[Settings, Depends(get_settings)]


def leaderboard_pages_of(request: Request) -> PageCache:
    """The app's rendered leaderboard pages (no dependency: see :func:`database_of`)."""
    pages: PageCache = request.app.state.leaderboard_pages
    return pages
