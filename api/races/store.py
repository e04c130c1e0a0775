"""The SQL of races, their racers and their rare events. Functions take the caller's session
or connection and never commit. A racer's game is the games feature's: its counts are read
through :class:`api.games.GameService`, never from the games' table here."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import and_, bindparam, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.races.tables import race_events as _events
from api.races.tables import race_racers as _racers
from api.races.tables import races as _races


class RaceState(NamedTuple):
    """What a race's writers, its ticker's deal and end, and its stream decide on: its
    status and rules, its times and its rematch (not its commitment or its counters)."""

    id: uuid.UUID
    status: str
    seats: int
    time_limit: int
    starts_at: datetime | None
    ends_at: datetime | None
    next_race_id: uuid.UUID | None
    computer_level: str | None
    public: bool


class DueRace(NamedTuple):
    """A race with work due for the ticker: a deal, an end, the computer's placement, or the
    closing of its idle lobby."""

    id: uuid.UUID
    status: str
    ends_at: datetime | None
    computer_at: datetime | None
    computer_level: str | None


class Credential(NamedTuple):
    """What proves a racer is who it says: its account, or the hash of its racer token.
    Never shown: kept apart from what a racer's line shows."""

    player_id: uuid.UUID | None
    token_hash: str | None


class Racer(NamedTuple):
    """A racer as its race's writers, page, stream and ranking use it: what its line shows
    (its number, name, whether it is an account, the computer, its game and rank) and, apart,
    its credential."""

    number: int
    name: str
    computer: bool
    game_id: uuid.UUID | None
    rank: int | None
    credential: Credential

    @property
    def registered(self) -> bool:
        return self.credential.player_id is not None


class RaceEvent(NamedTuple):
    """One of a race's rare events as stored: its number, kind and JSON data."""

    number: int
    kind: str
    data: str


_STATE = select(*(_races.c[name] for name in RaceState._fields))
# A race's page: its columns labelled as the page (api.races.schemas.RaceOut) names them.
_PAGE = select(
    _races.c.id,
    _races.c.status,
    _races.c.seats,
    _races.c.time_limit,
    _races.c.computer_level.label("level"),
    _races.c.deck_commitment,
    _races.c.public,
    _races.c.created_at,
    _races.c.starts_at,
    _races.c.ends_at,
    _races.c.finished_at,
    _races.c.next_race_id.label("next_race"),
)
_RACERS = select(
    _racers.c.number,
    _racers.c.name,
    _racers.c.computer,
    _racers.c.game_id,
    _racers.c.rank,
    _racers.c.player_id,
    _racers.c.token_hash,
).order_by(_racers.c.number)
_EVENTS = select(_events.c.number, _events.c.kind, _events.c.data).order_by(_events.c.number)


def get_race(session: Executor, race_id: uuid.UUID, *, lock: bool = False) -> RaceState | None:
    """The race, or None; with ``lock``, its row held until the transaction ends (SQLite's
    write transactions take the whole database at their ``BEGIN IMMEDIATE``)."""
    statement = _STATE.where(_races.c.id == race_id)
    row = session.execute(statement.with_for_update() if lock else statement).first()
    return None if row is None else RaceState._make(row)


def race_page(session: Executor, race_id: uuid.UUID) -> dict[str, Any] | None:
    """The race as its page shows it, by the page's names; None for no such race."""
    row = session.execute(_PAGE.where(_races.c.id == race_id)).mappings().first()
    return None if row is None else dict(row)


def get_racers(session: Executor, race_id: uuid.UUID) -> list[Racer]:
    rows = session.execute(_RACERS.where(_racers.c.race_id == race_id))
    return [Racer(*row[:5], credential=Credential(*row[5:])) for row in rows]


def get_events(session: Executor, race_id: uuid.UUID) -> list[RaceEvent]:
    """Every rare event of the race, in order (a race has a few dozen at most)."""
    rows = session.execute(_EVENTS.where(_events.c.race_id == race_id))
    return [RaceEvent._make(row) for row in rows]


_DUE = select(*(_races.c[name] for name in DueRace._fields))


def races_due(session: Executor, at: datetime, idle_since: datetime) -> list[DueRace]:
    """The races with work due at ``at``: a countdown over (the deal), a running race out of
    time, a computer's placement, a lobby with no rare event since ``idle_since`` (its
    closing). The ticker's, by ``ix_races_status``: each branch names one status, so each is a
    range of that index; ``lobby`` is the few races open now (never the finished ones, nearly
    every row), whose ``active_at`` is checked on the rows the range finds."""
    due = or_(
        and_(_races.c.status == "countdown", _races.c.starts_at <= at),
        and_(_races.c.status == "running", or_(_races.c.ends_at <= at, _races.c.computer_at <= at)),
        and_(_races.c.status == "lobby", _races.c.active_at <= idle_since),
    )
    return [DueRace._make(row) for row in session.execute(_DUE.where(due))]


def games_running(session: Executor) -> dict[uuid.UUID, list[uuid.UUID | None]]:
    """The games of every running race's racers (None: not dealt), by race."""
    statement = (
        select(_racers.c.race_id, _racers.c.game_id)
        .join(_races, _races.c.id == _racers.c.race_id)
        .where(_races.c.status == "running")
        .order_by(_racers.c.race_id, _racers.c.number)
    )
    found: dict[uuid.UUID, list[uuid.UUID | None]] = {}
    for race_id, game_id in session.execute(statement):
        found.setdefault(race_id, []).append(game_id)
    return found


class OpenRace(NamedTuple):
    """A public race in its lobby with a free seat, as the open races' list shows it."""

    id: uuid.UUID
    seats: int
    time_limit: int
    computer_level: str | None
    created_at: datetime
    events: int  # its rare events' count: a join or a leave moves it (the stream's position)
    names: tuple[str, ...]  # its racers', in the order they joined


OpenKey = tuple[datetime, uuid.UUID]  # (created_at, id), newest first

_COUNT = (
    select(func.count()).where(_racers.c.race_id == _races.c.id).correlate(_races).scalar_subquery()
)
_OPEN = (
    select(
        _races.c.id,
        _races.c.seats,
        _races.c.time_limit,
        _races.c.computer_level,
        _races.c.created_at,
        _races.c.events,
    )
    .where(_races.c.public, _races.c.status == "lobby", _races.c.seats > _COUNT)
    .order_by(_races.c.created_at.desc(), _races.c.id.desc())
)
_NAMES = (
    select(_racers.c.race_id, _racers.c.name)
    .where(_racers.c.race_id.in_(bindparam("ids", expanding=True)))
    .order_by(_racers.c.race_id, _racers.c.number)
)


def open_races(session: Executor, after: OpenKey | None, limit: int) -> list[OpenRace]:
    """The public races in their lobby with a free seat, newest first, after ``after``: two
    statements (the races, by ``ix_races_open``; their racers' names, by their primary
    key), whatever the page's length."""
    statement = _OPEN
    if after is not None:
        at, race_id = after
        statement = statement.where(
            or_(
                _races.c.created_at < at,
                and_(_races.c.created_at == at, _races.c.id < race_id),
            )
        )
    rows = session.execute(statement.limit(limit)).all()
    if not rows:
        return []
    names: dict[uuid.UUID, list[str]] = {}
    for race_id, name in session.execute(_NAMES, {"ids": [row.id for row in rows]}):
        names.setdefault(race_id, []).append(name)
    return [OpenRace(*row, names=tuple(names.get(row.id, ()))) for row in rows]


def insert_race(
    session: Session,
    race_id: uuid.UUID,
    *,
    seats: int,
    time_limit: int,
    deck_commitment: str,
    created_at: datetime,
    computer_level: str | None,
    public: bool,
) -> None:
    """A new race, in its lobby, with no event yet."""
    values = {
        "id": race_id,
        "seats": seats,
        "time_limit": time_limit,
        "status": "lobby",
        "deck_commitment": deck_commitment,
        "events": 0,
        "created_at": created_at,
        "active_at": created_at,
        "computer_level": computer_level,
        "public": public,
    }
    session.connection().execute(insert(_races), values)


def insert_racer(session: Session, race_id: uuid.UUID, racer: dict[str, Any]) -> None:
    session.connection().execute(insert(_racers), {"race_id": race_id, **racer})


def delete_racer(session: Session, race_id: uuid.UUID, number: int) -> None:
    statement = delete(_racers).where(_racers.c.race_id == race_id, _racers.c.number == number)
    session.connection().execute(statement)


def insert_event(session: Session, race_id: uuid.UUID, kind: str, data: str, at: datetime) -> int:
    """Store the race's next rare event, written ``at``; its number. The ``UPDATE`` that takes
    the number holds the race's row until the transaction ends: the writers of a race's rare
    events (joins, leaves, its start and its end) take turns, so they are numbered without a
    gap. It stamps ``active_at`` too: a join or a leave keeps a lobby open."""
    statement = (
        update(_races)
        .where(_races.c.id == race_id)
        .values(events=_races.c.events + 1, active_at=at)
        .returning(_races.c.events)
    )
    connection = session.connection()
    number: int = connection.execute(statement).scalar_one()
    values = {"race_id": race_id, "number": number, "kind": kind, "data": data}
    connection.execute(insert(_events), values)
    return number


def change_race(session: Session, race_id: uuid.UUID, was: str, **values: Any) -> bool:
    """Write ``values`` if the race is still in status ``was``; whether it was (of two processes
    starting or ending a race at once, one does it)."""
    return _change(session, race_id, _races.c.status == was, values)


def close_idle(session: Session, race_id: uuid.UUID, idle_since: datetime) -> bool:
    """Close the race if it is still a lobby with no rare event since ``idle_since``; whether
    it was. Of the processes that saw it due, one closes it; a join or a leave committed
    first (a later ``active_at``) keeps it open, and one waiting on this row finds it closed."""
    guard = and_(_races.c.status == "lobby", _races.c.active_at <= idle_since)
    return _change(session, race_id, guard, {"status": "closed", "computer_at": None})


def claim_computer(
    session: Session, race_id: uuid.UUID, due: datetime, following: datetime
) -> bool:
    """Take the computer's placement due at ``due`` (and set the next one's time): of the
    processes that saw it due, exactly one gets it."""
    return _change(session, race_id, _races.c.computer_at == due, {"computer_at": following})


def _change(session: Session, race_id: uuid.UUID, guard: Any, values: dict[str, Any]) -> bool:
    statement = update(_races).where(_races.c.id == race_id, guard).values(**values)
    return session.connection().execute(statement).rowcount == 1


def set_racer(session: Session, race_id: uuid.UUID, number: int, **values: Any) -> None:
    statement = update(_racers).where(_racers.c.race_id == race_id, _racers.c.number == number)
    session.connection().execute(statement.values(**values))


def player_races(session: Executor, player_id: uuid.UUID, limit: int) -> list[dict[str, Any]]:
    """A player's races, newest first (by ``ix_race_racers_player_id``): ``race_id``,
    ``status``, ``created_at``, ``racers`` (how many) and the player's ``rank``."""
    everyone = _racers.alias("everyone")
    count = select(func.count()).where(everyone.c.race_id == _races.c.id).scalar_subquery()
    statement = (
        select(
            _races.c.id.label("race_id"),
            _races.c.status,
            _races.c.created_at,
            count.label("racers"),
            _racers.c.rank,
        )
        .join(_racers, _racers.c.race_id == _races.c.id)
        .where(_racers.c.player_id == player_id)
        .order_by(_races.c.created_at.desc(), _races.c.id)
        .limit(limit)
    )
    return [dict(row) for row in session.execute(statement).mappings()]


def race_of_game(session: Executor, game_id: uuid.UUID) -> uuid.UUID | None:
    """The race whose game this is (by ``ix_race_racers_game_id``)."""
    statement = select(_racers.c.race_id).where(_racers.c.game_id == game_id)
    found: uuid.UUID | None = session.execute(statement).scalar()
    return found


def race_counts(session: Executor, player_id: uuid.UUID) -> tuple[int, int]:
    """The player's races finished, and won: ranked first against another racer at least (a
    race alone is no race won), as their page and their races' list show them (by
    ``ix_race_racers_player_id``, and the racers of each race won by its primary key)."""
    rival = _racers.alias("rival")
    others = (
        select(rival.c.number)
        .where(rival.c.race_id == _racers.c.race_id, rival.c.number != _racers.c.number)
        .exists()
    )
    statement = (
        select(func.count(), func.count().filter(_racers.c.rank == 1, others))
        .join(_races, _races.c.id == _racers.c.race_id)
        .where(_racers.c.player_id == player_id, _races.c.status == "finished")
    )
    played, won = session.execute(statement).one()
    return played, won
