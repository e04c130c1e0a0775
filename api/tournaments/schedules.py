"""The operators' schedules of tournaments, and their announcer.

A schedule says when its tournaments start (a cron expression, :mod:`api.tournaments.cron`),
how long each lasts and how long before its start each is announced. Every server process
runs an announcer (:meth:`ScheduleService.run`): each pass, for each schedule, the starts
whose announcement time has come are announced (:func:`api.tournaments.service.announce`),
each in its own transaction. Replicas need not talk to each other: a tournament of a schedule
is unique by (schedule, start) in the database, so of two replicas announcing the same start
one makes it and the other finds it made. A start missed while no server ran is not made
late: only a start still ahead (or that passed less than a pass ago) is announced.

Schedules come from operators' requests or from ``FOURSQUARE_TOURNAMENT_SCHEDULES``; the
settings' ones are stored under an id derived from their name (:func:`settings_id`), so every
replica's start sets the same rows again and none makes a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import partial
from itertools import islice
from typing import Any

from sqlalchemy import Row
from sqlalchemy.orm import Session

from api.core.clock import now
from api.core.database import Database, Executor
from api.core.ids import existing, parse_id
from api.fairplay import Moderators
from api.tournaments import cron
from api.tournaments import schedule_store as store
from api.tournaments.errors import ScheduleNotFound
from api.tournaments.schedule_schemas import ScheduleIn, ScheduleList, ScheduleOut
from api.tournaments.schedule_settings import ScheduleSettings
from api.tournaments.schedule_store import DueSchedule
from api.tournaments.service import TournamentSpec, announce

log = logging.getLogger("foursquare.tournaments")

# The namespace of the settings' schedules' ids (uuid5 of their name): a constant, so every
# replica, and every start of one, derives the same id. An operator's schedule gets a random
# (version 4) id, so the version tells the two apart.
SETTINGS_NAMESPACE = uuid.UUID("6c1f0d52-3b8e-4f0a-9a57-2f4d3c9b1e80")

# At most this many tournaments of one schedule per pass: a schedule of short tournaments
# announced days ahead has thousands to make at first; the next passes make the rest.
PER_PASS = 50


def settings_id(name: str) -> uuid.UUID:
    """The id of the schedule of this name in ``FOURSQUARE_TOURNAMENT_SCHEDULES``."""
    return uuid.uuid5(SETTINGS_NAMESPACE, name)


def from_settings(schedule_id: uuid.UUID) -> bool:
    return schedule_id.version == 5


class ScheduleService:
    """The schedules' routes (an operator's credential each), the settings' schedules and
    the announcer; each method one unit of work, or one per tournament announced."""

    def __init__(
        self,
        database: Database,
        moderators: Moderators,
        secret: bytes,
        settings: ScheduleSettings,
    ) -> None:
        self.database = database
        self.moderators = moderators
        self.secret = secret  # the tournaments' deals are derived from it (announce)
        self.period = settings.tournament_announce_seconds
        self._woken: asyncio.Event | None = None

    async def create(self, key: str | None, body: ScheduleIn) -> ScheduleOut:
        self.moderators.who(key)
        schedule = _record(uuid.uuid4(), body, now())
        await self.database.write(lambda session: store.insert(session, schedule))
        log.info("tournament schedule %s (%r, %r) created", schedule["id"], body.name, body.cron)
        self.wake()  # its first tournament may be due for its announcement already
        return schedule_out(schedule, now())

    async def listing(self, key: str | None) -> ScheduleList:
        self.moderators.who(key)
        schedules = await self.database.read(store.every)
        at = now()
        return ScheduleList(
            schedules=[schedule_out(schedule._mapping, at) for schedule in schedules]
        )

    async def read(self, key: str | None, schedule_id: str) -> ScheduleOut:
        self.moderators.who(key)
        found = _parse_id(schedule_id)
        schedule = await self.database.read(lambda session: _existing(session, found))
        return schedule_out(schedule._mapping, now())

    async def delete(self, key: str | None, schedule_id: str) -> None:
        """Announce no more of its tournaments (those announced stay); deleting it again
        changes nothing."""
        self.moderators.who(key)
        found = _parse_id(schedule_id)

        def write(session: Session) -> None:
            if not store.exists(session, found):
                raise _not_found(str(found))
            store.cancel(session, found, now())

        await self.database.write(write)
        log.info("tournament schedule %s deleted", found)

    async def set_from_settings(self, schedules: list[ScheduleIn]) -> None:
        """Store the settings' schedules as they say (once each, whatever the replicas and
        restarts), and stop those the settings no longer name."""
        at = now()
        records = [_record(settings_id(body.name), body, at) for body in schedules]

        def write(session: Session) -> None:
            for record in records:
                store.put(session, record)
            kept = {record["id"] for record in records}
            for old in store.active_ids(session):
                if from_settings(old) and old not in kept:
                    store.cancel(session, old, at)

        await self.database.write(write)

    def wake(self) -> None:
        """Make this process's announcer pass now rather than at its next period."""
        if self._woken is not None:
            self._woken.set()

    async def run(self) -> None:
        """The announcer, until cancelled: a pass (:meth:`announce_due`) every
        ``FOURSQUARE_TOURNAMENT_ANNOUNCE_SECONDS``, or at once when woken."""
        self._woken = asyncio.Event()
        try:
            while True:
                try:
                    await self.announce_due()
                except Exception:
                    log.exception("announcing the scheduled tournaments failed")  # next pass
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._woken.wait(), self.period)
                self._woken.clear()
        finally:
            self._woken = None

    async def announce_due(self) -> list[uuid.UUID]:
        """One pass: announce every schedule's tournaments whose announcement time has come
        and that no process has announced yet; the ids of those this pass made."""
        at = now()
        made: list[uuid.UUID] = []
        for schedule in await self.database.read(store.due):
            for start in await self.database.read(partial(self._due, schedule=schedule, at=at)):
                announced = await self.database.write(
                    partial(self._announce, schedule=schedule, start=start)
                )
                if announced is not None:
                    log.info(
                        "tournament %s of schedule %s (%r) announced: it starts at %s",
                        announced,
                        schedule.id,
                        schedule.name,
                        start.isoformat(),
                    )
                    made.append(announced)
        return made

    def _due(self, session: Executor, schedule: DueSchedule, at: datetime) -> list[datetime]:
        """The starts of ``schedule`` to announce at ``at``: announced from ``announce_ahead``
        before them, and no later than one pass after them (nor once they are over): a start
        missed while no server ran is not made late. Those after the latest made already, at
        most :data:`PER_PASS`."""
        duration = timedelta(seconds=schedule.duration)
        late = min(timedelta(seconds=self.period), duration / 2)
        after = at - late
        until = at + timedelta(seconds=schedule.announce_ahead)
        latest = store.latest_start(session, schedule.id, after)
        starts = cron.starts_between(schedule.cron, max(after, latest or after), until)
        return list(islice(starts, PER_PASS))

    def _announce(
        self, session: Session, schedule: DueSchedule, start: datetime
    ) -> uuid.UUID | None:
        """The tournament of ``schedule`` at ``start``, unless it is made already (by another
        replica, even one committing right now) or the schedule was deleted meanwhile."""
        current = store.to_announce(session, schedule.id)
        if current is None:
            return None
        spec = TournamentSpec(
            name=current.name,
            starts_at=start,
            ends_at=start + timedelta(seconds=current.duration),
            deals=current.deals,
            guests=current.guests,
            max_entrants=current.max_entrants,
        )
        # Of replicas announcing the same start at once, the unique (schedule, start)
        # lets one insert it; the others' announce finds it there and makes nothing.
        return announce(session, self.secret, spec, schedule.id)


def _record(schedule_id: uuid.UUID, body: ScheduleIn, at: datetime) -> dict[str, Any]:
    """A new schedule's row, by column (what :func:`schedule_out` shows of it as well)."""
    return {
        "id": schedule_id,
        "name": body.name,
        "cron": body.cron,
        "duration": body.duration_minutes * 60,
        "deals": body.deals,
        "guests": body.guests,
        "max_entrants": body.max_entrants,
        "announce_ahead": body.announce_ahead_minutes * 60,
        "created_at": at,
        "cancelled_at": None,
    }


def schedule_out(schedule: Mapping[Any, Any], at: datetime) -> ScheduleOut:
    """A schedule's page from its row by column: one read, or the row just written. The
    model checks each value's type (a ``Row``'s are ``Any``)."""
    following = (
        None
        if schedule["cancelled_at"] is not None
        else next(cron.starts_between(schedule["cron"], at, at + timedelta(days=3660)), None)
    )
    return ScheduleOut(
        id=schedule["id"],
        name=schedule["name"],
        cron=schedule["cron"],
        duration_minutes=schedule["duration"] // 60,
        deals=schedule["deals"],
        guests=schedule["guests"],
        max_entrants=schedule["max_entrants"],
        announce_ahead_minutes=schedule["announce_ahead"] // 60,
        created_at=schedule["created_at"],
        cancelled_at=schedule["cancelled_at"],
        from_settings=from_settings(schedule["id"]),
        next_start=following,
    )


def _not_found(schedule_id: str) -> ScheduleNotFound:
    return ScheduleNotFound(f"no tournament schedule has the id {schedule_id!r}")


def _parse_id(raw: str) -> uuid.UUID:
    """A schedule id from a URL; anything that is not a UUID is a schedule that does not
    exist."""
    return parse_id(raw, _not_found)


def _existing(session: Executor, schedule_id: uuid.UUID) -> Row[Any]:
    return existing(store.get(session, schedule_id), schedule_id, _not_found)
