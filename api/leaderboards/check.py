"""``foursquare check-leaderboard``: the boards' counters, ordinals and players' bests
against a recount of the won games, and (``--repair``) their rebuild from it."""

from __future__ import annotations

from api.core.database import Database
from api.leaderboards import recount
from api.leaderboards.recount import Drift


def counters_drift(database: Database) -> list[Drift]:
    """Every counter, ordinal and player's best that differs from a recount of the won
    games, read in one snapshot (so that wins recorded meanwhile cannot look like drift):
    a ``REPEATABLE READ`` transaction on PostgreSQL (wins go on); on SQLite a write
    transaction, which holds the database for the moment the check takes, since its read
    connections run in autocommit."""
    if database.is_sqlite:
        with database.transaction() as session:
            return recount.leaderboard_drift(session)
    with database.write_engine.connect() as connection:
        connection.execution_options(isolation_level="REPEATABLE READ")
        with connection.begin():
            return recount.leaderboard_drift(connection)


def repair_counters(database: Database) -> list[Drift]:
    """What :func:`counters_drift` finds, set right: if anything differs, every counter,
    ordinal and player's best is rebuilt from the won games, in a transaction that keeps wins
    out until it commits. Returns what differed; nothing is written when nothing did.

    The check runs first, on its own snapshot, without holding wins back: a recount takes
    seconds per 100,000 wins, and wins should wait only for the rebuild, and only when there
    is something to repair. The rebuild sets everything from the ``scores`` rows as they are
    when it holds the lock, so wins recorded between the two are counted."""
    found = counters_drift(database)
    if found:
        with database.transaction() as session:
            recount.lock_leaderboard(session)
            recount.rebuild_leaderboard(session)
    return found
