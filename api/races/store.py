"""The SQL of races and their racers. Functions take the caller's session or connection and
never commit; a race's events are stored by :mod:`api.events.announce`, numbered here."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Table, func, insert, select, update
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.core.models import GameRow, RaceRow, RacerRow

_races = cast(Table, RaceRow.__table__)
_racers = cast(Table, RacerRow.__table__)
_games = cast(Table, GameRow.__table__)


class RaceRecord(NamedTuple):
    id: uuid.UUID
    seats: int
    time_limit: int
    status: str
    deck_commitment: str
    events: int
    created_at: datetime
    starts_at: datetime | None = None
    ends_at: datetime | None = None
    finished_at: datetime | None = None
    computer_at: datetime | None = None
    next_race_id: uuid.UUID | None = None


class RacerRecord(NamedTuple):
    """A racer and, once the race has started, its game's public columns."""

    number: int
    name: str
    player_id: uuid.UUID | None
    token_hash: str | None
    computer: bool
    game_id: uuid.UUID | None
    rank: int | None
    status: str | None
    score: int | None
    placements_count: int | None
    finished_at: datetime | None
    snapshot: str | None  # the game's stored snapshot (counts are read from it)


_RACE = select(*(_races.c[name] for name in RaceRecord._fields))
_RACERS = (
    select(
        *(_racers.c[name] for name in RacerRecord._fields[:7]),
        _games.c.status,
        _games.c.score,
        _games.c.placements_count,
        _games.c.finished_at,
        _games.c.public_json,
    )
    .select_from(_racers.outerjoin(_games, _games.c.id == _racers.c.game_id))
    .order_by(_racers.c.number)
)


def get_race(session: Executor, race_id: uuid.UUID, *, lock: bool = False) -> RaceRecord | None:
    """The race, or None; with ``lock``, its row held until the transaction ends (SQLite's
    write transactions take the whole database at their ``BEGIN IMMEDIATE``)."""
    statement = _RACE.where(_races.c.id == race_id)
    row = session.execute(statement.with_for_update() if lock else statement).first()
    return None if row is None else RaceRecord._make(row)


def get_racers(session: Executor, race_id: uuid.UUID) -> list[RacerRecord]:
    rows = session.execute(_RACERS.where(_racers.c.race_id == race_id))
    return [RacerRecord._make(row) for row in rows]


def races_not_finished(session: Executor) -> list[RaceRecord]:
    """The races in a countdown or running: what the ticker looks after (by its index)."""
    rows = session.execute(_RACE.where(_races.c.status.in_(("countdown", "running"))))
    return [RaceRecord._make(row) for row in rows]


def insert_race(session: Session, race: RaceRecord) -> None:
    session.connection().execute(insert(_races), race._asdict())


def insert_racer(session: Session, race_id: uuid.UUID, racer: dict[str, Any]) -> None:
    session.connection().execute(insert(_racers), {"race_id": race_id, **racer})


def next_event(session: Session, race_id: uuid.UUID) -> int:
    """The number of the race's next event. The ``UPDATE`` holds the race's row until the
    transaction ends: the writers of one race (joins, placements, its end) take turns, so
    its events are numbered without a gap and its end is decided once."""
    statement = (
        update(_races)
        .where(_races.c.id == race_id)
        .values(events=_races.c.events + 1)
        .returning(_races.c.events)
    )
    number: int = session.connection().execute(statement).scalar_one()
    return number


def change_race(session: Session, race_id: uuid.UUID, was: str, **values: Any) -> bool:
    """Write ``values`` if the race is still in status ``was``; whether it was (of two processes
    starting or ending a race at once, one does it)."""
    return _change(session, race_id, _races.c.status == was, values)


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


def race_of_game(session: Executor, game_id: uuid.UUID) -> tuple[uuid.UUID, int] | None:
    """The race and racer number of a race's game."""
    statement = select(_racers.c.race_id, _racers.c.number).where(_racers.c.game_id == game_id)
    row = session.execute(statement).first()
    return None if row is None else (row[0], row[1])


def unseal(session: Session, game_ids: list[uuid.UUID]) -> None:
    """The race is over: its games are public now (a finished game's next read makes its
    snapshot again, with its reveal, as a daily challenge game's after its day)."""
    statement = update(_games).where(_games.c.id.in_(game_ids)).values(sealed=False)
    session.connection().execute(statement)


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
    return [dict(row._mapping) for row in session.execute(statement)]
