"""Whether this process can serve: its database answers a query."""

from __future__ import annotations

from api.core import store
from api.core.database import Database


class ReadinessCheck:
    """What ``GET /readyz`` asks: a ``SELECT 1`` on the process's database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def check(self) -> str:
        """The database backend's name once it has answered (a database error otherwise)."""
        await self.database.read(store.ping)
        return self.database.read_engine.dialect.name
