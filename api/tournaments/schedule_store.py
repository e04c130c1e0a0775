"""The schedules' SQL: the operators' ``tournament_schedules``, and which occurrences of a
schedule are tournaments already (the tournament itself is made by
:func:`api.tournaments.service.announce`)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import NamedTuple

from sqlalchemy import func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.tournaments.tables import tournament_schedules as _schedules
from api.tournaments.tables import tournaments as _tournaments


class ScheduleRecord(NamedTuple):
    """A schedule's row (``duration`` and ``announce_ahead`` in seconds)."""

    id: uuid.UUID
    name: str
    cron: str
    duration: int
    deals: int
    guests: bool
    max_entrants: int | None
    announce_ahead: int
    created_at: datetime
    cancelled_at: datetime | None


_COLUMNS = [_schedules.c[name] for name in ScheduleRecord._fields]
_SET_AGAIN = ("name", "cron", "duration", "deals", "guests", "max_entrants", "announce_ahead")


def insert(session: Session, schedule: ScheduleRecord) -> None:
    session.execute(_schedules.insert().values(**schedule._asdict()))


def put(session: Session, schedule: ScheduleRecord) -> None:
    """Insert the schedule, or set an existing one of its id to it (active again, its
    ``created_at`` kept): the settings' schedules, which every server sets as it starts."""
    dialect = session.connection().dialect.name
    statement = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_schedules)
    session.execute(
        statement.values(**schedule._asdict()).on_conflict_do_update(
            index_elements=["id"],
            set_={name: statement.excluded[name] for name in _SET_AGAIN} | {"cancelled_at": None},
        )
    )


def get(session: Executor, schedule_id: uuid.UUID) -> ScheduleRecord | None:
    row = session.execute(select(*_COLUMNS).where(_schedules.c.id == schedule_id)).first()
    return None if row is None else ScheduleRecord._make(row)


def every(session: Executor, *, active: bool = False) -> list[ScheduleRecord]:
    """The schedules (those not cancelled only, if ``active``), oldest first."""
    statement = select(*_COLUMNS).order_by(_schedules.c.created_at, _schedules.c.id)
    if active:
        statement = statement.where(_schedules.c.cancelled_at.is_(None))
    return [ScheduleRecord._make(row) for row in session.execute(statement)]


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
