"""The schedules' SQL: the operators' ``tournament_schedules``, and which occurrences of a
schedule are tournaments already (the tournament itself is made by
:func:`api.tournaments.service.announce`)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Row, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.tournaments.tables import tournament_schedules as _schedules
from api.tournaments.tables import tournaments as _tournaments


class DueSchedule(NamedTuple):
    """An active schedule as the announcer finds its due starts (seconds)."""

    id: uuid.UUID
    name: str
    cron: str
    duration: int
    announce_ahead: int


class Announced(NamedTuple):
    """What an active schedule's tournament is made of, read as it is announced."""

    name: str
    duration: int
    deals: int
    guests: bool
    max_entrants: int | None


_SET_AGAIN = ("name", "cron", "duration", "deals", "guests", "max_entrants", "announce_ahead")


def insert(session: Session, schedule: dict[str, Any]) -> None:
    """Store a new schedule: its every column's value by name (``duration`` and
    ``announce_ahead`` in seconds)."""
    session.execute(_schedules.insert().values(**schedule))


def put(session: Session, schedule: dict[str, Any]) -> None:
    """Insert the schedule, or set an existing one of its id to it (active again, its
    ``created_at`` kept): the settings' schedules, which every server sets as it starts."""
    dialect = session.connection().dialect.name
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_schedules)
    session.execute(
        statement.values(**schedule).on_conflict_do_update(
            index_elements=["id"],
            set_={name: statement.excluded[name] for name in _SET_AGAIN} | {"cancelled_at": None},
        )
    )


def get(session: Executor, schedule_id: uuid.UUID) -> Row[Any] | None:
    """The schedule as its page shows it: its whole row."""
    return session.execute(select(_schedules).where(_schedules.c.id == schedule_id)).first()


def exists(session: Executor, schedule_id: uuid.UUID) -> bool:
    statement = select(_schedules.c.id).where(_schedules.c.id == schedule_id)
    return session.execute(statement).first() is not None


def every(session: Executor) -> list[Row[Any]]:
    """The schedules as their list shows them (whole rows), oldest first."""
    statement = select(_schedules).order_by(_schedules.c.created_at, _schedules.c.id)
    return list(session.execute(statement))


def active_ids(session: Executor) -> list[uuid.UUID]:
    """The ids of the schedules not cancelled."""
    statement = select(_schedules.c.id).where(_schedules.c.cancelled_at.is_(None))
    return list(session.execute(statement).scalars())


def due(session: Executor) -> list[DueSchedule]:
    """The schedules not cancelled, oldest first, as the announcer reads them."""
    c = _schedules.c
    statement = (
        select(c.id, c.name, c.cron, c.duration, c.announce_ahead)
        .where(c.cancelled_at.is_(None))
        .order_by(c.created_at, c.id)
    )
    return [DueSchedule._make(row) for row in session.execute(statement)]


def to_announce(session: Executor, schedule_id: uuid.UUID) -> Announced | None:
    """What the schedule's tournament is made of, unless it is cancelled (or gone)."""
    c = _schedules.c
    statement = select(c.name, c.duration, c.deals, c.guests, c.max_entrants).where(
        c.id == schedule_id, c.cancelled_at.is_(None)
    )
    row = session.execute(statement).first()
    return None if row is None else Announced._make(row)


def cancel(session: Session, schedule_id: uuid.UUID, at: datetime) -> None:
    """Announce no more of the schedule's tournaments (once: a second cancel keeps the first
    time)."""
    session.execute(
        update(_schedules)
        .where(_schedules.c.id == schedule_id, _schedules.c.cancelled_at.is_(None))
        .values(cancelled_at=at)
    )


def latest_start(session: Executor, schedule_id: uuid.UUID, after: datetime) -> datetime | None:
    """The latest start later than ``after`` of the schedule's tournaments made already."""
    latest: datetime | None = session.execute(
        select(func.max(_tournaments.c.starts_at)).where(
            _tournaments.c.schedule_id == schedule_id, _tournaments.c.starts_at > after
        )
    ).scalar_one()
    return latest
