"""Abandoned games: games in progress left untouched too long end as lost, ``abandoned``; so do
daily challenge games still in progress when their day closed (they take no more placements).

An abandoned game is over like any other: its public view reveals the deck and the salt,
placements and hints on it are refused with ``game_over``, and it never has a score row (it
was not won), so it is not on the leaderboard.

Expiry works like a placement: each game is decided on the row as read, then stored with
the same version-guarded ``UPDATE ... WHERE id = :id AND version = :v``
(:func:`api.games.store.change_game`). A placement (or hint) that lands
between the read and the write bumps the version, so that game is not expired; a placement
planned on the version that the expiry replaced finds no row at its version and gets the
usual ``409 version_conflict``. Either the placement lands or the game is abandoned, never
both. Games are read and decided outside any write transaction, so a batch holds the write lock
(SQLite's is the whole database) only for its UPDATEs.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from api.core import days
from api.core.clock import now, today
from api.core.database import Database
from api.games import snapshot, store
from api.games.hooks import HOOKS, GameFacts
from api.games.records import decode, encode, facts_of
from api.games.store import GameChange, GameRecord

BATCH = 200  # games decided and stored per write transaction

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PlannedExpiry:
    """A game to end as abandoned, decided on the row as read."""

    row: GameRecord  # as read
    change: GameChange


def plan_expiry(rows: Sequence[GameRecord], at: datetime) -> list[PlannedExpiry]:
    """End each game in memory and take its snapshot (which now reveals the deck, unless it
    is a challenge game of a day still open)."""
    plans = []
    for row in rows:
        game = decode(row)
        if game.is_over:  # the status column and the state disagree: leave it for a person
            continue
        game.abandon()
        sealed = days.is_sealed(row.challenge_date, row.sealed)
        change = GameChange(
            state=encode(game),
            status=game.status.value,
            end_reason=game.end_reason.value if game.end_reason else None,
            score=None,
            placements_count=game.placements_count,
            updated_at=at,
            finished_at=at,
            snapshot=snapshot.dumps(snapshot.take(game, row.salt, sealed=sealed)),
            snapshot_format=snapshot.format_of(game, sealed=sealed),
        )
        plans.append(PlannedExpiry(row, change))
    return plans


def store_expiry(session: Session, plans: Sequence[PlannedExpiry]) -> int:
    """Store the planned endings of the games still at the version they were read at; return
    how many were ended (a game changed since is skipped: it is no longer untouched).

    Rows are locked in one order whatever order the games were read in: the games by id,
    then the players' stats by player id. Two expiries read their batches at different
    moments (a placement in between reorders them by ``updated_at``), and a placement locks
    its one game before its player's stats; in any other order two of them can each hold a
    row the other waits for (PostgreSQL then aborts one with a deadlock)."""
    ended: list[GameFacts] = []
    for plan in sorted(plans, key=lambda plan: plan.row.id):
        row, change = plan.row, plan.change
        if store.change_game(session, row.id, row.version, change):
            facts = facts_of(row, change.placements_count, change.status, None, change.updated_at)
            HOOKS.announce(HOOKS.moved, session, facts)
            ended.append(facts)
    # Guests' games first, then by player: the order a placement takes its player's stats in.
    for facts in sorted(ended, key=lambda facts: (facts.player_id is not None, facts.player_id)):
        HOOKS.announce(HOOKS.ended, session, facts)
    return len(ended)


def expire_untouched(database: Database, untouched_for: timedelta, *, batch: int = BATCH) -> int:
    """End every game in progress whose last change is older than ``untouched_for``, and
    every daily challenge game still in progress when its day closed (it can take no more
    placements: see api.core.days); return how many were ended. Running it again
    at once ends nothing more."""
    cutoff = now() - untouched_for
    closed_before = today()
    return _expire_each(
        database,
        lambda connection: store.games_untouched_since(connection, cutoff, batch),
    ) + _expire_each(
        database,
        lambda connection: store.challenge_games_in_progress_before(
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
