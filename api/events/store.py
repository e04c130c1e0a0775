"""The PostgreSQL notification that announces a change. Live events own no table: a recorded
win is the leaderboards' (``win``, ``wins_since``); a game's placements after a number and its
state, and the games in progress or changed since a moment, are the games face's
(:mod:`api.games`: ``game_feed``, ``games_in_progress``, ``listed_game``, ``listed_since``).

What a stream sends is always read from the database: a notification names what changed and
nothing more, so a lost or repeated one delays or repeats a read, never an event.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import psycopg
from psycopg import sql

# The one PostgreSQL channel every process listens on (one connection per process).
CHANNEL = "foursquare_events"


async def notifications(conninfo: str) -> AsyncIterator[str]:
    """PostgreSQL: the payloads of :data:`CHANNEL`'s notifications as they arrive, on one
    connection of its own (``LISTEN`` holds it); ends with an error when it is lost."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
        await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        yield ""  # listening: what was notified before this has to be read anew
        async for notification in connection.notifies():
            yield notification.payload
