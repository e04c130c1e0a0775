"""Bulk-loading a tournament's entrants straight into its tables, for the benchmarks
(bench/tournament_load.py): ten thousand entrants with their standings cost seconds here,
where joining and playing each through the API would cost hours.

The rows are the ones the service keeps for entrants whose deals have ended (their
``deals_played``, ``score``, ``cards`` and ``finished_at``, the standings' columns), written
in batches through SQLAlchemy Core in one transaction, with the tournament's ``entrants``
counter set to match, so that the standings, ranks and caps read them as they read entrants
who joined and played. The tournament itself is made as the service makes one
(``POST /tournaments``); only its entrants are loaded, and (:func:`bulk_finish`) its end.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from api.tournaments.tables import tournament_entrants, tournament_games, tournaments

BATCH = 5_000


@dataclass(frozen=True)
class LoadedEntrant:
    """One entrant as the service would have kept it once its ``deals_played`` deals ended.
    ``games``: the game of each deal from the first, if the caller made them (finished
    games of the ``games`` table); none leaves ``tournament_games`` empty for it."""

    number: int
    name: str
    joined_at: datetime
    deals_played: int
    score: int
    cards: int
    finished_at: datetime | None
    player_id: uuid.UUID | None = None
    token_hash: str | None = None
    left_at: datetime | None = None
    place: int | None = None
    games: tuple[uuid.UUID, ...] = ()


def bulk_entrants(
    connection: Connection, tournament_id: uuid.UUID, entrants: Iterable[LoadedEntrant]
) -> int:
    """Append ``entrants`` to the tournament (numbers after its last entrant's, names unique
    within it: the caller's to choose) and count them in its ``entrants``; return how many.
    Runs in the caller's transaction, so a failed load leaves nothing behind."""
    loaded = 0
    rows: list[dict[str, object]] = []
    games: list[dict[str, object]] = []

    def flush() -> None:
        if rows:
            connection.execute(insert(tournament_entrants), rows)
        if games:
            connection.execute(insert(tournament_games), games)
        rows.clear()
        games.clear()

    for entrant in entrants:
        rows.append(
            {
                "tournament_id": tournament_id,
                "number": entrant.number,
                "name": entrant.name,
                "player_id": entrant.player_id,
                "token_hash": entrant.token_hash,
                "joined_at": entrant.joined_at,
                "left_at": entrant.left_at,
                "deals_played": entrant.deals_played,
                "score": entrant.score,
                "cards": entrant.cards,
                "finished_at": entrant.finished_at,
                "place": entrant.place,
            }
        )
        games.extend(
            {"tournament_id": tournament_id, "entrant": entrant.number, "deal": deal, "game_id": g}
            for deal, g in enumerate(entrant.games, start=1)
        )
        loaded += 1
        if len(rows) >= BATCH:
            flush()
    flush()
    count = (
        select(func.count())
        .select_from(tournament_entrants)
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .scalar_subquery()
    )
    connection.execute(
        update(tournaments).where(tournaments.c.id == tournament_id).values(entrants=count)
    )
    return loaded


def bulk_finish(connection: Connection, tournament_id: uuid.UUID, finished_at: datetime) -> None:
    """Mark a tournament whose entrants were loaded with their ``place`` as finished at
    ``finished_at``, as its end and the fair-play review would have left it: its standings
    are then the final ones, each entry with its games."""
    connection.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(status="finished", finished_at=finished_at)
    )
