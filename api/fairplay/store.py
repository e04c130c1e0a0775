"""The SQL of the fair-play review: its job queue (queueing, claiming: one claimer per job
whatever the number of processes, heartbeats, verdicts), marked accounts and moderators'
decisions. The queue works as the analyses' does (:mod:`api.analysis.store`: ``SELECT ...
FOR UPDATE SKIP LOCKED`` inside the claiming ``UPDATE``)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import NamedTuple

from sqlalchemy import ColumnElement, Table, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.fairplay.tables import fairplay_accounts as _accounts
from api.fairplay.tables import fairplay_decisions as _decisions
from api.fairplay.tables import fairplay_reviews as _reviews


class ReviewRecord(NamedTuple):
    """One row of ``fairplay_reviews``."""

    game_id: uuid.UUID
    player: str
    player_id: uuid.UUID | None
    score: int
    placements: int
    finished_at: datetime
    challenge_date: date | None
    state: str  # queued, running, done
    verdict: str | None  # clean, flagged
    evidence: str | None
    decision: str | None  # cleared, confirmed
    attempts: int
    requested_at: datetime
    reviewed_at: datetime | None


_COLUMNS = tuple(_reviews.c[name] for name in ReviewRecord._fields)


class AccountRecord(NamedTuple):
    player_id: uuid.UUID
    state: str  # marked, confirmed, cleared
    flagged: int
    marked_at: datetime
    decided_at: datetime | None


_ACCOUNT_COLUMNS = tuple(_accounts.c[name] for name in AccountRecord._fields)


class DecisionRecord(NamedTuple):
    subject: str
    action: str
    moderator: str
    note: str | None
    decided_at: datetime


_DECISION_COLUMNS = tuple(_decisions.c[name] for name in DecisionRecord._fields)


def _insert(session: Session, table: Table) -> postgresql.Insert | sqlite.Insert:
    dialect = session.connection().dialect.name
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


def queue(session: Session, review: ReviewRecord) -> None:
    """Queue a won game's review, once (``ON CONFLICT DO NOTHING``)."""
    session.execute(
        _insert(session, _reviews)
        .values(**review._asdict())
        .on_conflict_do_nothing(index_elements=["game_id"])
    )


def get(session: Executor, game_id: uuid.UUID) -> ReviewRecord | None:
    row = session.execute(select(*_COLUMNS).where(_reviews.c.game_id == game_id)).first()
    return None if row is None else ReviewRecord._make(row)


def of_games(session: Executor, game_ids: list[uuid.UUID]) -> dict[uuid.UUID, ReviewRecord]:
    if not game_ids:
        return {}
    rows = session.execute(select(*_COLUMNS).where(_reviews.c.game_id.in_(game_ids)))
    return {row.game_id: ReviewRecord._make(row) for row in rows}


# Claims a review gets: one that kills or fails its process every time is not taken for ever
# (its game stays pending, and the moderators' queue lists it).
MAX_ATTEMPTS = 5


def _waiting(stale_before: datetime) -> ColumnElement[bool]:
    """Queued jobs, and running ones whose claimer stopped renewing its heartbeat, that have
    not used up their attempts."""
    state = _reviews.c.state
    stale = (state == "running") & (_reviews.c.heartbeat_at < stale_before)
    return ((state == "queued") | stale) & (_reviews.c.attempts < MAX_ATTEMPTS)


def work_exists(session: Executor, stale_before: datetime) -> bool:
    """Whether a job waits: a cheap read before a claim's write transaction."""
    found = session.execute(
        select(_reviews.c.game_id).where(_waiting(stale_before)).limit(1)
    ).first()
    return found is not None


def claim(
    session: Session, claimer: str, now: datetime, stale_before: datetime
) -> ReviewRecord | None:
    """Claim the oldest waiting job (wins are reviewed in the order they were queued), or
    None. See :func:`api.analysis.store.claim_analysis` for why this claims each job once."""
    chosen = (
        select(_reviews.c.game_id)
        .where(_waiting(stale_before))
        .order_by(_reviews.c.requested_at, _reviews.c.game_id)
        .limit(1)
        .with_for_update(skip_locked=True)
        .scalar_subquery()
    )
    row = session.execute(
        update(_reviews)
        .where(_reviews.c.game_id == chosen)
        .values(
            state="running",
            claimed_by=claimer,
            heartbeat_at=now,
            attempts=_reviews.c.attempts + 1,
        )
        .returning(*_COLUMNS)
    ).first()
    return None if row is None else ReviewRecord._make(row)


def _claimed_by(game_id: uuid.UUID, claimer: str) -> ColumnElement[bool]:
    return (
        (_reviews.c.game_id == game_id)
        & (_reviews.c.claimed_by == claimer)
        & (_reviews.c.state == "running")
    )


def renew(session: Session, game_id: uuid.UUID, claimer: str, now: datetime) -> bool:
    """The claimer's heartbeat; False if the job was taken over meanwhile."""
    result = session.execute(
        update(_reviews).where(_claimed_by(game_id, claimer)).values(heartbeat_at=now)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def finish(
    session: Session, game_id: uuid.UUID, claimer: str, now: datetime, verdict: str, evidence: str
) -> bool:
    """Store the verdict of a job the claimer still holds; False, and nothing stored, if it
    was taken over."""
    done = session.execute(
        update(_reviews)
        .where(_claimed_by(game_id, claimer))
        .values(
            state="done",
            verdict=verdict,
            evidence=evidence,
            claimed_by=None,
            heartbeat_at=now,
            reviewed_at=now,
        )
    )
    return int(done.rowcount) == 1  # type: ignore[attr-defined]


def release(session: Session, game_id: uuid.UUID, claimer: str) -> bool:
    """A job the claimer holds back in the queue (its process is stopping)."""
    result = session.execute(
        update(_reviews)
        .where(_claimed_by(game_id, claimer))
        .values(state="queued", claimed_by=None, heartbeat_at=None)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def decide_game(session: Session, game_id: uuid.UUID, decision: str) -> None:
    session.execute(update(_reviews).where(_reviews.c.game_id == game_id).values(decision=decision))


def flagged_since(session: Executor, player_id: uuid.UUID, since: datetime | None) -> int:
    """An account's flagged wins that no moderator cleared, reviewed after ``since``."""
    statement = select(func.count()).where(
        _reviews.c.player_id == player_id,
        _reviews.c.verdict == "flagged",
        _reviews.c.decision.is_distinct_from("cleared"),
    )
    if since is not None:
        statement = statement.where(_reviews.c.reviewed_at > since)
    return int(session.execute(statement).scalar_one())


def flagged_games(session: Executor, limit: int) -> list[ReviewRecord]:
    """Flagged wins no moderator has decided on, oldest first."""
    rows = session.execute(
        select(*_COLUMNS)
        .where(_reviews.c.verdict == "flagged", _reviews.c.decision.is_(None))
        .order_by(_reviews.c.reviewed_at, _reviews.c.game_id)
        .limit(limit)
    )
    return [ReviewRecord._make(row) for row in rows]


def stuck_games(session: Executor, limit: int) -> list[ReviewRecord]:
    """Reviews that used up their attempts without a verdict."""
    rows = session.execute(
        select(*_COLUMNS)
        .where(_reviews.c.state != "done", _reviews.c.attempts >= MAX_ATTEMPTS)
        .order_by(_reviews.c.requested_at, _reviews.c.game_id)
        .limit(limit)
    )
    return [ReviewRecord._make(row) for row in rows]


def reviews_of_player(session: Executor, player_id: uuid.UUID, limit: int) -> list[ReviewRecord]:
    rows = session.execute(
        select(*_COLUMNS)
        .where(_reviews.c.player_id == player_id)
        .order_by(_reviews.c.requested_at.desc(), _reviews.c.game_id)
        .limit(limit)
    )
    return [ReviewRecord._make(row) for row in rows]


# ---------------------------------------------------------------- accounts


def account(session: Executor, player_id: uuid.UUID) -> AccountRecord | None:
    row = session.execute(
        select(*_ACCOUNT_COLUMNS).where(_accounts.c.player_id == player_id)
    ).first()
    return None if row is None else AccountRecord._make(row)


def mark(session: Session, player_id: uuid.UUID, flagged: int, now: datetime) -> None:
    """Mark an account (again, after a moderator cleared it)."""
    session.execute(
        _insert(session, _accounts)
        .values(player_id=player_id, state="marked", flagged=flagged, marked_at=now)
        .on_conflict_do_update(
            index_elements=["player_id"],
            set_={"state": "marked", "flagged": flagged, "marked_at": now, "decided_at": None},
        )
    )


def decide_account(session: Session, player_id: uuid.UUID, state: str, now: datetime) -> None:
    session.execute(
        update(_accounts)
        .where(_accounts.c.player_id == player_id)
        .values(state=state, decided_at=now)
    )


def marked_accounts(session: Executor, limit: int) -> list[AccountRecord]:
    """Marked accounts no moderator has decided on, oldest first."""
    rows = session.execute(
        select(*_ACCOUNT_COLUMNS)
        .where(_accounts.c.state == "marked")
        .order_by(_accounts.c.marked_at, _accounts.c.player_id)
        .limit(limit)
    )
    return [AccountRecord._make(row) for row in rows]


# ---------------------------------------------------------------- decisions


def record_decision(
    session: Session, subject: str, action: str, moderator: str, note: str | None, now: datetime
) -> None:
    session.execute(
        insert(_decisions).values(
            subject=subject, action=action, moderator=moderator, note=note, decided_at=now
        )
    )


def decisions(session: Executor, subject: str) -> list[DecisionRecord]:
    rows = session.execute(
        select(*_DECISION_COLUMNS)
        .where(_decisions.c.subject == subject)
        .order_by(_decisions.c.decided_at, _decisions.c.id)
    )
    return [DecisionRecord._make(row) for row in rows]
