"""A tournament's stream: its rare events, in order, as stored (:mod:`api.tournaments.store`).

Every change a watcher sees is one of them (a join, a leave, a deal finished, the standings
after it, the start, the end, the final standings, a cancellation): an entrant's placements
are never events, so the stream listens to no game and a placement costs it nothing. An
event's id is its number; a stream resumed with ``Last-Event-ID`` is sent the events after
it. None carries a card; an entry carries its games' ids only in the final standings. The
stream ends after ``final`` or ``cancelled``.
"""

from __future__ import annotations

import re
import uuid
from bisect import bisect_right

from pydantic import BaseModel
from sqlalchemy.orm import Session

from api.core.database import Database, Executor
from api.events import Reading, topic_changed, topic_position
from api.tournaments import standings_store, store
from api.tournaments.ids import existing_tournament
from api.tournaments.schemas import Entry, StandingsEvent
from api.tournaments.store import Standing, Terms, TournamentEvent

POSITION = re.compile(r"[0-9]{1,9}", re.ASCII)
_LAST = ("final", "cancelled")  # the stream closes after these
TOP = 10  # entries in a `standings` event


class TournamentReading:
    """A tournament's events as read at one moment."""

    listens: frozenset[uuid.UUID] = frozenset()

    def __init__(self, events: list[TournamentEvent]) -> None:
        self.events = events

    @property
    def last(self) -> int:
        return self.events[-1].number if self.events else 0

    def after(self, position: str | None) -> tuple[list[tuple[str, str, bytes]], str, bool]:
        number = parse_position(position)
        # Each of a process's watchers asks at each new event: from the first one it lacks
        # (the events are in number order), not over a tournament's thousands each time.
        first = bisect_right(self.events, number, key=_number)
        sent = [
            (event.kind, str(event.number), event.data.encode()) for event in self.events[first:]
        ]
        done = bool(self.events) and self.events[-1].kind in _LAST
        return sent, str(max(number, self.last)), done


def _number(event: TournamentEvent) -> int:
    return event.number


class TournamentTopic:
    """The tournaments' :class:`api.events.Topic`: a tournament's stream, keyed by its id."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def read(
        self, key: uuid.UUID, previous: Reading | None, changed: frozenset[uuid.UUID]
    ) -> TournamentReading:
        """The events: all of them the first time, then, at each of the tournament's notices,
        those after the last one read (``404 tournament_not_found`` for no such tournament).
        Its events are only ever added, numbered under its row's lock, so none committed
        after a read has a number below that read's last."""
        if isinstance(previous, TournamentReading):
            after = previous.last
            newer = await self.database.read(lambda s: store.get_events(s, key, after))
            return TournamentReading(previous.events + newer) if newer else previous

        def read(session: Executor) -> TournamentReading:
            existing_tournament(store.get_tournament(session, key), key)
            return TournamentReading(store.get_events(session, key))

        return await self.database.read(read)


def parse_position(position: str | None) -> int:
    """A stream position (an event's id: its number), ``422 invalid_last_event_id`` for
    anything else."""
    text = topic_position(position, POSITION, "a tournament")
    return 0 if text is None else int(text)


def locked(session: Session, tournament_id: uuid.UUID) -> Terms:
    """The tournament, its row held until the transaction ends (404 if none): how a writer
    of its rare events takes its turn."""
    return existing_tournament(
        store.get_tournament(session, tournament_id, lock=True), tournament_id
    )


def publish(session: Session, tournament_id: uuid.UUID, kind: str, data: BaseModel) -> None:
    """Store one of the tournament's rare events (its row held by the ``UPDATE`` that
    numbers it), and tell its stream's watchers in every process once it commits."""
    store.insert_event(session, tournament_id, kind, data.model_dump_json())
    topic_changed(session, tournament_id)


def publish_standings(
    session: Session, tournament_id: uuid.UUID, games: dict[int, list[uuid.UUID]] | None = None
) -> None:
    """``event: standings``: the first ten as they are now (``games``: once it is finished,
    each entrant's games)."""
    top = standings_store.standings(session, tournament_id, limit=TOP)
    ranks = ranks_of(session, tournament_id, top, top=True)
    entries = [
        entry_out(row, rank, games.get(row.number, []) if games is not None else None)
        for row, rank in zip(top, ranks, strict=True)
    ]
    publish(session, tournament_id, "standings", StandingsEvent(top=entries))


def ranks_of(
    session: Executor,
    tournament_id: uuid.UUID,
    rows: list[Standing],
    *,
    top: bool = False,
    first: tuple[int, int] | None = None,
) -> list[int]:
    """The ranks of consecutive entrants of the standings: the first's is one more than the
    entrants strictly ahead of it; each next one shares the previous one's if it ties with
    it, else is one more than the entrants before it. The first's rank and how many are
    before it are counted (one statement), unless they are known: ``top`` of the standings
    (nobody ahead), or ``first`` (rank, before), which a page's cursor carries from the page
    before it."""
    if not rows:
        return []
    if top:
        first = (1, 0)
    elif first is None:
        strictly, before = standings_store.counts_ahead(
            session, tournament_id, standings_store.key_of(rows[0])
        )
        first = (strictly + 1, before)
    ranks, before = [first[0]], first[1]
    for index in range(1, len(rows)):
        if _tied(rows[index], rows[index - 1]):
            ranks.append(ranks[-1])
        else:
            ranks.append(before + index + 1)
    return ranks


def _tied(one: Standing, other: Standing) -> bool:
    return (one.score, one.cards, one.finished_at) == (other.score, other.cards, other.finished_at)


def entry_out(entrant: Standing, rank: int | None, games: list[uuid.UUID] | None = None) -> Entry:
    """An entrant as anyone may see it; ``games`` only once the tournament is finished."""
    return Entry(
        number=entrant.number,
        name=entrant.name,
        account=entrant.player_id is not None,
        rank=rank,
        deals_played=entrant.deals_played,
        score=entrant.score,
        cards=entrant.cards,
        finished_at=entrant.finished_at,
        left=entrant.left_at is not None,
        place=entrant.place,
        games=games,
    )
