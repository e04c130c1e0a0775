"""Abandoned games: games in progress left untouched too long end as lost, ``abandoned``; so do
daily challenge games still in progress when their day closed (they take no more placements).

An abandoned game is over like any other: its public view reveals the deck and the salt,
placements and hints on it are refused with ``game_over``, and it never has a score row (it
was not won), so it is not on the leaderboard.

Expiry works like a placement: each game is decided on the row as read, then stored with
the same version-guarded ``UPDATE ... WHERE id = :id AND version = :v``
(:func:`api.store.repository.update_game_if_version`). A placement (or hint) that lands
between the read and the write bumps the version, so that game is not expired; a placement
planned on the version that the expiry replaced finds no row at its version and gets the
usual ``409 version_conflict``. Either the placement lands or the game is abandoned, never
both. Games are read outside any write transaction and rendered there, so a batch holds the
write lock (SQLite's is the whole database) only for its UPDATEs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from api.clock import now
from api.games.challenge_days import today
from api.games.games import dump_state, game_of, render
from api.store import repository
from api.store.database import Database
from api.store.repository import GameRecord

BATCH = 200  # games decided and stored per write transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlannedExpiry:
    """A game to end as abandoned, decided on the row as read."""

    row: GameRecord  # as read
    values: dict[str, Any]  # its new column values


def plan_expiry(rows: Sequence[GameRecord], at: datetime) -> list[PlannedExpiry]:
    """End each game in memory and render its public view (which now reveals the deck)."""
    plans = []
    for row in rows:
        game = game_of(row)
        if game.is_over:  # the status column and the state disagree: leave it for a person
            continue
        game.abandon()
        after = render(
            row._replace(
                state=dump_state(game), version=row.version + 1, updated_at=at, finished_at=at
            ),
            game,
        )
        values: dict[str, Any] = {
            "state": after.state,
            "status": game.status.value,
            "end_reason": game.end_reason.value if game.end_reason else None,
            "score": None,
            "updated_at": at,
            "finished_at": at,
            "public_json": after.public_json,
            "public_format": after.public_format,
        }
        plans.append(PlannedExpiry(row, values))
    return plans


def store_expiry(session: Session, plans: Sequence[PlannedExpiry]) -> int:
    """Store the planned endings of the games still at the version they were read at; return
    how many were ended (a game changed since is skipped: it is no longer untouched).

    Rows are locked in one order whatever order the games were read in: the games by id,
    then the players' stats by player id. Two expiries read their batches at different
    moments (a placement in between reorders them by ``updated_at``), and a placement locks
    its one game before its player's stats; in any other order two of them can each hold a
    row the other waits for (PostgreSQL then aborts one with a deadlock)."""
    ended: list[PlannedExpiry] = []
    for plan in sorted(plans, key=lambda plan: plan.row.id):
        if repository.update_game_if_version(session, plan.row.id, plan.row.version, plan.values):
            ended.append(plan)
    players = sorted(
        (plan.row.player_id, plan.values["finished_at"])
        for plan in ended
        if plan.row.player_id is not None
    )
    for player_id, finished_at in players:
        # A loss in the player's stats, in the transaction that ends the game.
        repository.count_game_finished(session, player_id, None, finished_at)
    return len(ended)


def expire_untouched(database: Database, untouched_for: timedelta, *, batch: int = BATCH) -> int:
    """End every game in progress whose last change is older than ``untouched_for``, and
    every daily challenge game still in progress when its day closed (it can take no more
    placements: see api.games.challenge_days); return how many were ended. Running it again
    at once ends nothing more."""
    cutoff = now() - untouched_for
    closed_before = today()
    return _expire_each(
        database,
        lambda connection: repository.games_untouched_since(connection, cutoff, batch),
    ) + _expire_each(
        database,
        lambda connection: repository.challenge_games_in_progress_before(
            connection, closed_before, batch
        ),
    )


def _expire_each(database: Database, find: Callable[[Connection], list[GameRecord]]) -> int:
    """End the games ``find`` returns, batch after batch, until it finds none."""
    ended = 0
    while True:
        with database.reading() as connection:
            rows = find(connection)
        if not rows:
            return ended
        plans = plan_expiry(rows, now())
        with database.transaction() as session:
            stored = store_expiry(session, plans)
        ended += stored
        if stored == 0:
            # Every game of the batch changed meanwhile or is inconsistent: those are not
            # found again only if they changed, so stop rather than read them forever.
            return ended


async def expire_untouched_async(database: Database, untouched_for: timedelta) -> int:
    """:func:`expire_untouched` from the event loop: in a worker thread, during a write turn
    (so that the server's own writes keep their first-come order)."""
    return await database.in_write_turn(lambda: expire_untouched(database, untouched_for))


async def expire_periodically(
    database: Database, every: timedelta, untouched_for: timedelta
) -> None:
    """The server's own expiry (``FOURSQUARE_EXPIRE_EVERY_MINUTES``), until cancelled. Every
    worker of every replica runs it; the version guard makes that safe, at the price of some
    repeated reads."""
    while True:
        await asyncio.sleep(every.total_seconds())
        try:
            ended = await expire_untouched_async(database, untouched_for)
        except Exception:
            # A busy or unreachable database (or a bug) must not end the loop for good: the
            # next round tries again, and the log says why this one failed.
            logger.exception("expiring abandoned games failed")
        else:
            if ended:
                logger.info("ended %d games untouched for %s (abandoned)", ended, untouched_for)
