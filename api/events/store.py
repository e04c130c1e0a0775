"""The SQL of live events: a recorded win, and the PostgreSQL notification that announces a
change. A game's placements after a number and its state, and the games in progress or
changed since a moment, are the games face's (:mod:`api.games`: ``game_feed``,
``games_in_progress``, ``listed_game``, ``listed_since``).

What a stream sends is always read from the database: a notification names what changed and
nothing more, so a lost or repeated one delays or repeats a read, never an event.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import NamedTuple, cast

import psycopg
from psycopg import sql
from sqlalchemy import Table, bindparam, select

from api.core.database import Executor
from api.core.models import ScoreRow

# The one PostgreSQL channel every process listens on (one connection per process).
CHANNEL = "foursquare_events"

_scores = cast(Table, ScoreRow.__table__)


class Win(NamedTuple):
    """A won game as the leaderboard lists it."""

    game_id: uuid.UUID
    player: str
    score: int
    finished_at: datetime
    assisted: bool


_WIN = select(
    _scores.c.game_id, _scores.c.player, _scores.c.score, _scores.c.finished_at, _scores.c.assisted
).where(_scores.c.game_id == bindparam("id"))


def win(session: Executor, game_id: uuid.UUID) -> Win | None:
    row = session.execute(_WIN, {"id": game_id}).first()
    return None if row is None else Win._make(row)


_WINS_SINCE = (
    select(_scores.c.game_id)
    .where(
        # The days' index (ix_scores_day) first: one or two days' wins, not the whole board.
        _scores.c.day.in_(bindparam("days", expanding=True)),
        _scores.c.finished_at > bindparam("since", type_=_scores.c.finished_at.type),
    )
    .order_by(_scores.c.finished_at)
    .limit(bindparam("limit"))
)


def wins_since(session: Executor, since: datetime, limit: int) -> list[uuid.UUID]:
    """The games won after ``since`` (UTC), first finished first, at most ``limit``."""
    days = sorted({since.astimezone(UTC).date(), datetime.now(UTC).date()})
    rows = session.execute(_WINS_SINCE, {"days": days, "since": since, "limit": limit})
    return [row[0] for row in rows]


async def notifications(conninfo: str) -> AsyncIterator[str]:
    """PostgreSQL: the payloads of :data:`CHANNEL`'s notifications as they arrive, on one
    connection of its own (``LISTEN`` holds it); ends with an error when it is lost."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as connection:
        await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(CHANNEL)))
        yield ""  # listening: what was notified before this has to be read anew
        async for notification in connection.notifies():
            yield notification.payload
