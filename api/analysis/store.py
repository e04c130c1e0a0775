"""The SQL of the analysis job queue: queueing, claiming (one claimer per job, whatever the
number of processes), heartbeats, results."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import ColumnElement, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.analysis.tables import analyses as _analyses
from api.core.database import Executor


class AnalysisRecord(NamedTuple):
    """A finished game's analysis job as its reader sees it: its progress and, once done, its
    result (who holds the claim and how often it was tried are the runner's business)."""

    game_id: uuid.UUID
    state: str  # queued, running, done, failed
    reviewed: int
    total: int
    result: str | None
    error: str | None
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None


_ANALYSIS_COLUMNS = tuple(_analyses.c[name] for name in AnalysisRecord._fields)


def get_analysis(session: Executor, game_id: uuid.UUID) -> AnalysisRecord | None:
    row = session.execute(select(*_ANALYSIS_COLUMNS).where(_analyses.c.game_id == game_id)).first()
    return None if row is None else AnalysisRecord(*row)


def insert_analysis_if_absent(
    session: Session, game_id: uuid.UUID, total: int, now: datetime
) -> bool:
    """Queue a game's analysis unless it has one (``INSERT ... ON CONFLICT DO NOTHING``: of
    two requests at once, one inserts and the other finds it); True if this one inserted."""
    connection = session.connection()
    dialect_insert = postgresql.insert if connection.dialect.name == "postgresql" else sqlite.insert
    statement = (
        dialect_insert(_analyses)
        .values(
            game_id=game_id, state="queued", reviewed=0, total=total, attempts=0, requested_at=now
        )
        .on_conflict_do_nothing(index_elements=["game_id"])
        .returning(_analyses.c.game_id)
    )
    return connection.execute(statement).first() is not None


def requeue_failed_analysis(session: Session, game_id: uuid.UUID, now: datetime) -> bool:
    """A failed analysis back in the queue, with its attempts counted afresh."""
    result = session.execute(
        update(_analyses)
        .where(_analyses.c.game_id == game_id, _analyses.c.state == "failed")
        .values(
            state="queued",
            reviewed=0,
            attempts=0,
            error=None,
            claimed_by=None,
            heartbeat_at=None,
            requested_at=now,
            started_at=None,
            finished_at=None,
        )
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def _waiting(stale_before: datetime) -> ColumnElement[bool]:
    """Queued jobs, and running ones whose claimer stopped renewing its heartbeat."""
    state = _analyses.c.state
    return (state == "queued") | ((state == "running") & (_analyses.c.heartbeat_at < stale_before))


def _claimable(stale_before: datetime, max_attempts: int) -> ColumnElement[bool]:
    return (_analyses.c.attempts < max_attempts) & _waiting(stale_before)


def analysis_work_exists(session: Executor, stale_before: datetime) -> bool:
    """Whether any job is queued or holds a stale claim: a cheap read (one range scan of
    ``ix_analyses_state_heartbeat_at``) before a claim's write transaction."""
    found = session.execute(
        select(_analyses.c.game_id).where(_waiting(stale_before)).limit(1)
    ).first()
    return found is not None


def fail_abandoned_analyses(
    session: Session, stale_before: datetime, max_attempts: int, now: datetime
) -> int:
    """Jobs whose every claimer died (``max_attempts`` claims, the last one stale) fail, so
    that a job that kills its process is not taken over for ever."""
    result = session.execute(
        update(_analyses)
        .where(
            _analyses.c.state == "running",
            _analyses.c.heartbeat_at < stale_before,
            _analyses.c.attempts >= max_attempts,
        )
        .values(
            state="failed",
            error=f"its process stopped {max_attempts} times",
            finished_at=now,
            claimed_by=None,
        )
    )
    return int(result.rowcount)  # type: ignore[attr-defined]


def claim_analysis(
    session: Session, claimer: str, now: datetime, stale_before: datetime, max_attempts: int
) -> uuid.UUID | None:
    """Claim the oldest claimable job for ``claimer``: its game's id, or None if there is none.

    The job is chosen by ``SELECT ... FOR UPDATE SKIP LOCKED`` inside the UPDATE. On
    PostgreSQL claimers running at once each lock a different job (or none) and never wait for
    one another; a job another claimer changed since this statement's snapshot is re-checked
    against the condition on its latest version, so it is never claimed twice. SQLite has no
    ``FOR UPDATE`` (SQLAlchemy leaves it out) and needs none: one writer at a time, and the
    statement chooses and updates the job at once.
    """
    chosen = (
        select(_analyses.c.game_id)
        .where(_claimable(stale_before, max_attempts))
        .order_by(_analyses.c.requested_at, _analyses.c.game_id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    claimed: uuid.UUID | None = session.execute(
        update(_analyses)
        .where(_analyses.c.game_id == chosen)
        .values(
            state="running",
            claimed_by=claimer,
            heartbeat_at=now,
            attempts=_analyses.c.attempts + 1,
            reviewed=0,
            started_at=func.coalesce(_analyses.c.started_at, now),
        )
        .returning(_analyses.c.game_id)
    ).scalar()
    return claimed


def _claimed_by(game_id: uuid.UUID, claimer: str) -> ColumnElement[bool]:
    return (
        (_analyses.c.game_id == game_id)
        & (_analyses.c.claimed_by == claimer)
        & (_analyses.c.state == "running")
    )


def renew_analysis(
    session: Session, game_id: uuid.UUID, claimer: str, reviewed: int, now: datetime
) -> bool:
    """The claimer's heartbeat and progress; False if the job is no longer its own (it was
    taken over after a stale heartbeat): the claimer then stops."""
    result = session.execute(
        update(_analyses)
        .where(_claimed_by(game_id, claimer))
        .values(heartbeat_at=now, reviewed=reviewed)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def finish_analysis(
    session: Session,
    game_id: uuid.UUID,
    claimer: str,
    now: datetime,
    *,
    result: str | None = None,
    error: str | None = None,
    reviewed: int,
) -> bool:
    """Store the result (``done``) or the error (``failed``) of a job the claimer still
    holds; False, and nothing stored, if it was taken over."""
    done = session.execute(
        update(_analyses)
        .where(_claimed_by(game_id, claimer))
        .values(
            state="failed" if error is not None else "done",
            result=result,
            error=error[:200] if error is not None else None,
            reviewed=reviewed,
            heartbeat_at=now,
            finished_at=now,
        )
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def release_analysis(session: Session, game_id: uuid.UUID, claimer: str) -> bool:
    """Put a job the claimer holds back in the queue (its process is stopping), so that
    another process takes it at once rather than after the heartbeat timeout."""
    result = session.execute(
        update(_analyses)
        .where(_claimed_by(game_id, claimer))
        .values(state="queued", claimed_by=None, heartbeat_at=None, reviewed=0)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]
