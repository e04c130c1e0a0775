"""The SQL of tournaments, their deals, entrants, games and rare events. Functions take the
caller's session or connection and never commit. An entrant's games are the games feature's:
their state is read through :class:`api.games.GameService`, never from the games' table here.

The standings' order (score descending, cards descending, the earlier last finish, none last,
then the entrant's number) is :data:`STANDING_ORDER`; the standings' pages and ranks, and a
player's places, are :mod:`api.tournaments.standings_store` (kept apart only for length).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    Row,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.tournaments.tables import tournament_deals as _deals
from api.tournaments.tables import tournament_entrants as _entrants
from api.tournaments.tables import tournament_events as _events
from api.tournaments.tables import tournament_games as _games
from api.tournaments.tables import tournaments as _tournaments


class Terms(NamedTuple):
    """A tournament as its writers check it (mostly under its row's lock: :func:`get_tournament`):
    its status, times, deals, whom it takes and how many it has."""

    id: uuid.UUID
    name: str
    status: str
    starts_at: datetime
    ends_at: datetime
    deals: int
    guests: bool
    max_entrants: int | None
    entrants: int


class DueTournament(NamedTuple):
    """A tournament with work due, as the ticker sorts it."""

    id: uuid.UUID
    status: str
    ends_at: datetime


class Standing(NamedTuple):
    """An entrant as the standings show it (a page, the feed's top ten, the entrant's own
    entry): its number, name, whose, and its standing; also what a writer checks of the
    entrant a credential is (whether it left, its number)."""

    number: int
    name: str
    player_id: uuid.UUID | None
    left_at: datetime | None
    deals_played: int
    score: int
    cards: int
    finished_at: datetime | None
    place: int | None


class Finishing(NamedTuple):
    """An entrant as the final standings place it (its score counted again from its games
    as the review left them)."""

    number: int
    deals_played: int
    score: int
    cards: int
    finished_at: datetime | None


class TournamentEvent(NamedTuple):
    number: int
    kind: str
    data: str


class GameEntry(NamedTuple):
    """Whose a game is, as the end of a game counts it: its tournament, entrant and deal."""

    tournament_id: uuid.UUID
    entrant: int
    deal: int


class EntrantGame(NamedTuple):
    """A game of a tournament's, as its entrants' games are listed: whose, which deal."""

    entrant: int
    deal: int
    game_id: uuid.UUID


# A standing's key: score, cards, the last finish (None: no deal finished) and the number.
StandingKey = tuple[int, int, datetime | None, int]

_TERMS = select(*(_tournaments.c[name] for name in Terms._fields))
# What a tournament's page and the listing show of it (not its events' count nor its time of
# cancelling): read as SQLAlchemy ``Row``s, checked by name by the page's model.
_SHOWN = select(
    *(
        _tournaments.c[name]
        for name in (
            *Terms._fields,
            "schedule_id",
            "created_at",
            "finished_at",
        )
    )
)
ENTRANT_ROW = select(*(_entrants.c[name] for name in Standing._fields))
STANDING_ORDER = (
    _entrants.c.score.desc(),
    _entrants.c.cards.desc(),
    _entrants.c.finished_at.asc().nulls_last(),
    _entrants.c.number,
)


def _insert(session: Session, table: Any) -> postgresql.Insert | sqlite.Insert:
    dialect = session.connection().dialect.name
    return postgresql.insert(table) if dialect == "postgresql" else sqlite.insert(table)


# ---------------------------------------------------------------- tournaments


def insert_tournament(session: Session, tournament: dict[str, Any]) -> bool:
    """Store a tournament (its columns' values by name); False if its schedule's occurrence
    at its start exists already (the unique (schedule, start): of replicas announcing it at
    once, one inserts it)."""
    statement = _insert(session, _tournaments).values(**tournament)
    if tournament.get("schedule_id") is not None:
        statement = statement.on_conflict_do_nothing(index_elements=["schedule_id", "starts_at"])
    return session.connection().execute(statement).rowcount == 1


def insert_deals(session: Session, tournament_id: uuid.UUID, commitments: Sequence[str]) -> None:
    rows = [
        {"tournament_id": tournament_id, "number": number, "commitment": commitment}
        for number, commitment in enumerate(commitments, 1)
    ]
    session.connection().execute(insert(_deals), rows)


def delete_deals(session: Session, tournament_id: uuid.UUID) -> None:
    session.connection().execute(delete(_deals).where(_deals.c.tournament_id == tournament_id))


def get_tournament(
    session: Executor, tournament_id: uuid.UUID, *, lock: bool = False, share: bool = False
) -> Terms | None:
    """The tournament as a writer checks it, or None; with ``lock``, its row held until the
    transaction ends; with ``share``, held from changes (``FOR SHARE``: others sharing it are
    not kept waiting, a writer of the row waits for them all). SQLite has neither: it runs one
    writer at a time."""
    statement = _TERMS.where(_tournaments.c.id == tournament_id)
    if lock or share:
        statement = statement.with_for_update(read=not lock)
    row = session.execute(statement).first()
    return None if row is None else Terms._make(row)


def shown_tournament(session: Executor, tournament_id: uuid.UUID) -> Row[Any] | None:
    """The tournament as its page shows it, or None."""
    return session.execute(_SHOWN.where(_tournaments.c.id == tournament_id)).first()


def commitments(session: Executor, tournament_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[str]]:
    """Each tournament's deals' commitments, in deal order."""
    statement = (
        select(_deals.c.tournament_id, _deals.c.commitment)
        .where(_deals.c.tournament_id.in_(tournament_ids))
        .order_by(_deals.c.tournament_id, _deals.c.number)
    )
    found: dict[uuid.UUID, list[str]] = {each: [] for each in tournament_ids}
    for tournament_id, commitment in session.execute(statement):
        found[tournament_id].append(commitment)
    return found


def list_tournaments(
    session: Executor,
    statuses: Sequence[str],
    archive: bool,
    after: tuple[datetime, uuid.UUID] | None,
    limit: int,
) -> list[Row[Any]]:
    """Tournaments of ``statuses`` as the listing shows them: the soonest start first, or
    with ``archive`` the latest end first; from after the key ``after`` (the last one's time
    and id)."""
    c = _tournaments.c
    statement = _SHOWN.where(c.status.in_(list(statuses)))
    if archive:
        if after is not None:
            statement = statement.where(
                or_(c.ends_at < after[0], and_(c.ends_at == after[0], c.id > after[1]))
            )
        statement = statement.order_by(c.ends_at.desc(), c.id)
    else:
        if after is not None:
            statement = statement.where(
                or_(c.starts_at > after[0], and_(c.starts_at == after[0], c.id > after[1]))
            )
        statement = statement.order_by(c.starts_at, c.id)
    return list(session.execute(statement.limit(limit)))


def change_tournament(session: Session, tournament_id: uuid.UUID, was: str, **values: Any) -> bool:
    """Write ``values`` if the tournament is still in status ``was``; whether it was (of two
    processes starting or ending it at once, one does it)."""
    statement = (
        update(_tournaments)
        .where(_tournaments.c.id == tournament_id, _tournaments.c.status == was)
        .values(**values)
    )
    return session.connection().execute(statement).rowcount == 1


def tournaments_due(session: Executor, at: datetime) -> list[DueTournament]:
    """The tournaments with work due at ``at``: a start, an end, or final standings to write
    (by ``ix_tournaments_status_starts_at``)."""
    c = _tournaments.c
    due = or_(
        and_(c.status == "announced", c.starts_at <= at),
        and_(c.status == "running", c.ends_at <= at),
        c.status == "ending",
    )
    statement = select(c.id, c.status, c.ends_at).where(due)
    return [DueTournament._make(row) for row in session.execute(statement)]


# ---------------------------------------------------------------- entrants


def insert_entrant(session: Session, tournament_id: uuid.UUID, entrant: dict[str, Any]) -> None:
    """Store a new entrant: its columns' values by name (the rest their defaults)."""
    session.connection().execute(insert(_entrants), {"tournament_id": tournament_id, **entrant})
    _count_entrants(session, tournament_id, 1)


def delete_entrant(session: Session, tournament_id: uuid.UUID, number: int) -> None:
    statement = delete(_entrants).where(
        _entrants.c.tournament_id == tournament_id, _entrants.c.number == number
    )
    session.connection().execute(statement)
    _count_entrants(session, tournament_id, -1)


def _count_entrants(session: Session, tournament_id: uuid.UUID, by: int) -> None:
    statement = (
        update(_tournaments)
        .where(_tournaments.c.id == tournament_id)
        .values(entrants=_tournaments.c.entrants + by)
    )
    session.connection().execute(statement)


def set_entrant(session: Session, tournament_id: uuid.UUID, number: int, **values: Any) -> None:
    statement = update(_entrants).where(
        _entrants.c.tournament_id == tournament_id, _entrants.c.number == number
    )
    session.connection().execute(statement.values(**values))


def add_deal(
    session: Session,
    tournament_id: uuid.UUID,
    number: int,
    score: int,
    cards: int,
    at: datetime,
) -> None:
    """Count one more finished deal in an entrant's standing."""
    c = _entrants.c
    statement = (
        update(_entrants)
        .where(c.tournament_id == tournament_id, c.number == number)
        .values(
            deals_played=c.deals_played + 1,
            score=c.score + score,
            cards=c.cards + cards,
            finished_at=at,
        )
    )
    session.connection().execute(statement)


def last_number(session: Executor, tournament_id: uuid.UUID) -> int:
    statement = select(func.max(_entrants.c.number)).where(
        _entrants.c.tournament_id == tournament_id
    )
    found: int | None = session.execute(statement).scalar()
    return found or 0


def get_entrant(session: Executor, tournament_id: uuid.UUID, number: int) -> Standing | None:
    statement = ENTRANT_ROW.where(
        _entrants.c.tournament_id == tournament_id, _entrants.c.number == number
    )
    row = session.execute(statement).first()
    return None if row is None else Standing._make(row)


def entrant_of_player(
    session: Executor, tournament_id: uuid.UUID, player_id: uuid.UUID
) -> Standing | None:
    statement = ENTRANT_ROW.where(
        _entrants.c.tournament_id == tournament_id, _entrants.c.player_id == player_id
    )
    row = session.execute(statement).first()
    return None if row is None else Standing._make(row)


def entrant_of_token(
    session: Executor, tournament_id: uuid.UUID, token_hash: str
) -> Standing | None:
    """The guest entrant whose token hashes to ``token_hash`` (a random token's SHA-256: an
    equality on it tells a guesser nothing a comparison in constant time would not)."""
    statement = ENTRANT_ROW.where(
        _entrants.c.tournament_id == tournament_id, _entrants.c.token_hash == token_hash
    )
    row = session.execute(statement).first()
    return None if row is None else Standing._make(row)


def entrant_names(session: Executor, tournament_id: uuid.UUID) -> list[str]:
    statement = select(_entrants.c.name).where(_entrants.c.tournament_id == tournament_id)
    return list(session.execute(statement).scalars())


def entrant_named(session: Executor, tournament_id: uuid.UUID, name: str) -> Standing | None:
    """The entrant called ``name``, in any case."""
    statement = ENTRANT_ROW.where(
        _entrants.c.tournament_id == tournament_id,
        func.lower(_entrants.c.name) == name.lower(),
    )
    row = session.execute(statement.order_by(_entrants.c.number)).first()
    return None if row is None else Standing._make(row)


def all_entrants(session: Executor, tournament_id: uuid.UUID) -> list[Finishing]:
    """Every entrant, in the standings' order, as the final standings place it."""
    c = _entrants.c
    statement = select(*(c[name] for name in Finishing._fields))
    statement = statement.where(c.tournament_id == tournament_id).order_by(*STANDING_ORDER)
    return [Finishing._make(row) for row in session.execute(statement)]


# ---------------------------------------------------------------- games


def insert_game(
    session: Session, tournament_id: uuid.UUID, entrant: int, deal: int, game_id: uuid.UUID
) -> bool:
    """Store the game of an entrant's deal; False if that deal has one already (two deals
    of one entrant at once: the primary key keeps the first, the other waits for it)."""
    values = {"tournament_id": tournament_id, "entrant": entrant, "deal": deal, "game_id": game_id}
    statement = (
        _insert(session, _games)
        .values(**values)
        .on_conflict_do_nothing(index_elements=["tournament_id", "entrant", "deal"])
    )
    return session.connection().execute(statement).rowcount == 1


def game_entry(session: Executor, game_id: uuid.UUID) -> GameEntry | None:
    """The tournament, entrant and deal of a game, if it is a tournament's (by the unique
    index on ``game_id``)."""
    c = _games.c
    statement = select(c.tournament_id, c.entrant, c.deal).where(c.game_id == game_id)
    row = session.execute(statement).first()
    return None if row is None else GameEntry._make(row)


def games_of(
    session: Executor, tournament_id: uuid.UUID, entrant: int | None = None, of: Sequence[int] = ()
) -> list[EntrantGame]:
    """The tournament's games (of one entrant, or of those ``of`` a page), by entrant, deal."""
    c = _games.c
    statement = select(c.entrant, c.deal, c.game_id).where(c.tournament_id == tournament_id)
    if entrant is not None or of:
        statement = statement.where(c.entrant.in_(of) if of else c.entrant == entrant)
    rows = session.execute(statement.order_by(c.entrant, c.deal))
    return [EntrantGame._make(row) for row in rows]


# ---------------------------------------------------------------- events


def insert_event(session: Session, tournament_id: uuid.UUID, kind: str, data: str) -> int:
    """Store the tournament's next rare event; its number. The ``UPDATE`` that takes the
    number holds the tournament's row until the transaction ends: its writers take turns, so
    its events are numbered without a gap."""
    statement = (
        update(_tournaments)
        .where(_tournaments.c.id == tournament_id)
        .values(events=_tournaments.c.events + 1)
        .returning(_tournaments.c.events)
    )
    connection = session.connection()
    number: int = connection.execute(statement).scalar_one()
    values = {"tournament_id": tournament_id, "number": number, "kind": kind, "data": data}
    connection.execute(insert(_events), values)
    return number


def get_events(
    session: Executor, tournament_id: uuid.UUID, after: int = 0
) -> list[TournamentEvent]:
    c = _events.c
    statement = (
        select(c.number, c.kind, c.data)
        .where(c.tournament_id == tournament_id, c.number > after)
        .order_by(c.number)
    )
    return [TournamentEvent._make(row) for row in session.execute(statement)]
