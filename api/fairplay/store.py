"""The SQL of the fair-play review: its job queue (queueing, claiming: one claimer per job
whatever the number of processes, heartbeats, verdicts), marked accounts and moderators'
decisions. The queue works as the analyses' does (:mod:`api.analysis.store`: ``SELECT ...
FOR UPDATE SKIP LOCKED`` inside the claiming ``UPDATE``)."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, Row, Table, func, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.fairplay.tables import fairplay_accounts as _accounts
from api.fairplay.tables import fairplay_decisions as _decisions
from api.fairplay.tables import fairplay_reviews as _reviews


class Job(NamedTuple):
    """A won game as its review is queued and claimed: what the verdict acts on."""

    game_id: uuid.UUID
    player: str
    player_id: uuid.UUID | None
    score: int
    placements: int
    finished_at: datetime
    challenge_date: date | None


_JOB_COLUMNS = tuple(_reviews.c[name] for name in Job._fields)

# What moderators are shown is (nearly) the whole row, so those reads return SQLAlchemy's
# ``Row`` of these columns, by name, rather than a record that would repeat the tables'
# declarations (the response models in schemas.py check each field's type). ``Row[Any]``: a
# Core ``Table``'s columns carry no Python type.
# A review, its claim aside (``claimed_by``, ``heartbeat_at``: the runners' business).
_SHOWN = tuple(c for c in _reviews.c if c.name not in ("claimed_by", "heartbeat_at"))
# A marked account: state (marked, confirmed, cleared), flagged, marked_at, decided_at.
_ACCOUNT_COLUMNS = tuple(_accounts.c)
# A moderator's decision, its serial id aside.
_DECISION_COLUMNS = tuple(c for c in _decisions.c if c.name != "id")


def job_of(review: Row[Any]) -> Job:
    """The job of a review read whole."""
    return Job._make(getattr(review, name) for name in Job._fields)


def _insert(session: Session, table: Table) -> postgresql.Insert | sqlite.Insert:
    dialect = session.connection().dialect.name
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


def queue(session: Session, job: Job, at: datetime) -> None:
    """Queue a won game's review, once (``ON CONFLICT DO NOTHING``)."""
    session.execute(
        _insert(session, _reviews)
        .values(**job._asdict(), state="queued", attempts=0, requested_at=at)
        .on_conflict_do_nothing(index_elements=["game_id"])
    )


def get(session: Executor, game_id: uuid.UUID) -> Row[Any] | None:
    """A game's review, as moderators see it."""
    return session.execute(select(*_SHOWN).where(_reviews.c.game_id == game_id)).first()


def of_games(session: Executor, game_ids: list[uuid.UUID]) -> dict[uuid.UUID, Row[Any]]:
    """The reviews of these games (those that have one), as moderators see them."""
    if not game_ids:
        return {}
    rows = session.execute(select(*_SHOWN).where(_reviews.c.game_id.in_(game_ids)))
    return {row.game_id: row for row in rows}


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


def claim(session: Session, claimer: str, now: datetime, stale_before: datetime) -> Job | None:
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
        .returning(*_JOB_COLUMNS)
    ).first()
    return None if row is None else Job._make(row)


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


def flagged_games(session: Executor, limit: int) -> list[Row[Any]]:
    """Flagged wins no moderator has decided on, oldest first."""
    rows = session.execute(
        select(*_SHOWN)
        .where(_reviews.c.verdict == "flagged", _reviews.c.decision.is_(None))
        .order_by(_reviews.c.reviewed_at, _reviews.c.game_id)
        .limit(limit)
    )
    return list(rows)


def stuck_games(session: Executor, limit: int) -> list[Row[Any]]:
    """Reviews that used up their attempts without a verdict."""
    rows = session.execute(
        select(*_SHOWN)
        .where(_reviews.c.state != "done", _reviews.c.attempts >= MAX_ATTEMPTS)
        .order_by(_reviews.c.requested_at, _reviews.c.game_id)
        .limit(limit)
    )
    return list(rows)


def reviews_of_player(session: Executor, player_id: uuid.UUID, limit: int) -> list[Row[Any]]:
    rows = session.execute(
        select(*_SHOWN)
        .where(_reviews.c.player_id == player_id)
        .order_by(_reviews.c.requested_at.desc(), _reviews.c.game_id)
        .limit(limit)
    )
    return list(rows)


# ---------------------------------------------------------------- accounts


def account(session: Executor, player_id: uuid.UUID) -> Row[Any] | None:
    """An account's mark, if the review ever marked it."""
    return session.execute(
        select(*_ACCOUNT_COLUMNS).where(_accounts.c.player_id == player_id)
    ).first()


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


def marked_accounts(session: Executor, limit: int) -> list[Row[Any]]:
    """Marked accounts no moderator has decided on, oldest first."""
    rows = session.execute(
        select(*_ACCOUNT_COLUMNS)
        .where(_accounts.c.state == "marked")
        .order_by(_accounts.c.marked_at, _accounts.c.player_id)
        .limit(limit)
    )
    return list(rows)


# ---------------------------------------------------------------- decisions


def record_decision(
    session: Session, subject: str, action: str, moderator: str, note: str | None, now: datetime
) -> None:
    session.execute(
        insert(_decisions).values(
            subject=subject, action=action, moderator=moderator, note=note, decided_at=now
        )
    )


def decisions(session: Executor, subject: str) -> list[Row[Any]]:
    rows = session.execute(
        select(*_DECISION_COLUMNS)
        .where(_decisions.c.subject == subject)
        .order_by(_decisions.c.decided_at, _decisions.c.id)
    )
    return list(rows)
