"""A race's stream, read whole from the race and its racers' games each time it changes.

A racer's progress is its game's own state, never written as an event: the stream reads each
racer's counts from its game (:meth:`api.games.GameService.summaries`). Only the race's rare
events are stored, numbered in order under the race's row (:mod:`api.races.store`).

An event's id is where the stream stands after it: the number of the last rare event, then,
once the games are dealt, a mark per racer (in racer order) made of its game's placements and
``f`` once it is over, e.g. ``4.12.9f.0``. A stream resumed with ``Last-Event-ID`` is sent the
rare events after that number, then a ``progress`` (or ``finished``) for each racer whose
mark has moved since: its counts as they are now, not each step it missed. Rare events of the
lobby and the deal come first, the racers' progress next, the ``result`` and the ``rematch``
last. The stream ends after the ``rematch``, the ``left`` that closed an empty lobby, or the
``closed`` of a lobby left idle (:mod:`api.races.ticker`).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from functools import cached_property

from pydantic import BaseModel
from sqlalchemy.orm import Session

from api.core.clock import now
from api.core.database import Database, Executor
from api.core.days import SharedDeal, shared_deal
from api.events import Reading, topic_changed, topic_position
from api.games import GameService, GameSummary
from api.races import store
from api.races.ids import existing_race
from api.races.schemas import RacerEvent
from api.races.store import RaceEvent, Racer, RaceState
from engine.cards import DECK_SIZE

# The last rare event's number, then each racer's mark: what an event's id looks like.
POSITION = re.compile(r"[0-9]{1,4}(\.[0-9]{1,2}f?){0,8}", re.ASCII)
_LAST = ("result", "rematch")  # the rare events sent after the racers' progress


class RaceReading:
    """A race as read at one moment: what each watcher's position lacks of it."""

    def __init__(
        self,
        race: RaceState,
        racers: list[Racer],
        events: list[RaceEvent],
        games: dict[uuid.UUID, GameSummary],
    ) -> None:
        self.race = race
        self.racers = racers
        self.events = events
        self.games = games
        self.listens = frozenset(games)
        self.playing = [racer for racer in racers if racer.game_id in games]
        self._progress: dict[int, tuple[str, bytes]] = {}

    @cached_property
    def marks(self) -> list[str]:
        return [_mark(self.games[racer.game_id]) for racer in self.playing]  # type: ignore[index]

    def progress(self, index: int) -> tuple[str, bytes]:
        """The ``index``-th racer's event (``progress``, or ``finished`` once its game is
        over), rendered once per reading whatever the number of watchers, and only if a
        watcher lacks it (a placement moves one racer)."""
        if index not in self._progress:
            racer = self.playing[index]
            game = self.games[racer.game_id]  # type: ignore[index]
            kind = "progress" if game.status == "in_progress" else "finished"
            data = racer_out(racer, game, self.race.status == "finished").model_dump_json()
            self._progress[index] = (kind, data.encode())
        return self._progress[index]

    def after(self, position: str | None) -> tuple[list[tuple[str, str, bytes]], str, bool]:
        """The events (kind, id, data) a watcher at ``position`` lacks, its position after
        them, and whether its stream is done."""
        number, marks = parse_position(position)
        sent: list[tuple[str, str, bytes]] = []

        def send(kind: str, data: bytes) -> None:
            sent.append((kind, _position(number, marks), data))

        for event in self.events:
            if event.number > number and event.kind not in _LAST:
                number = event.number
                if event.kind == "started":
                    marks = ["0"] * len(self.playing)
                send(event.kind, event.data.encode())
        if marks or self.playing:
            marks = marks if len(marks) == len(self.playing) else ["0"] * len(self.playing)
            for index, mark in enumerate(self.marks):
                if _ahead(mark, marks[index]):
                    marks[index] = mark
                    send(*self.progress(index))
        for event in self.events:
            if event.number > number:
                number = event.number
                send(event.kind, event.data.encode())
        last = self.events[-1].kind if self.events else None
        done = last == "rematch" or self.race.status == "closed"
        return sent, _position(number, marks), done


class RaceTopic:
    """The races' :class:`api.events.Topic`: a race's stream, keyed by its id."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def read(
        self, key: uuid.UUID, previous: Reading | None, changed: frozenset[uuid.UUID]
    ) -> RaceReading:
        """The race as it is (``404 race_not_found`` for no such race); after a racer's
        placement only its game's counts are read again (a placement changes nothing else),
        and after a change of the race itself all of it."""
        if isinstance(previous, RaceReading) and key not in changed:
            if not changed:
                return previous
            moved = list(changed & previous.listens)
            if not moved:
                return previous

            def read_moved(session: Executor) -> RaceReading:
                games = previous.games | GameService.summaries(session, moved)
                return RaceReading(previous.race, previous.racers, previous.events, games)

            return await self.database.read(read_moved)

        def read(session: Executor) -> RaceReading:
            race = existing_race(store.get_race(session, key), key)
            racers = store.get_racers(session, key)
            return RaceReading(
                race, racers, store.get_events(session, key), games_of(session, racers)
            )

        return await self.database.read(read)


def locked(session: Session, race_id: uuid.UUID) -> tuple[RaceState, list[Racer]]:
    """The race and its racers, its row held until the transaction ends (404 if none): how a
    rare event's writer takes its turn."""
    race = existing_race(store.get_race(session, race_id, lock=True), race_id)
    return race, store.get_racers(session, race_id)


def publish(session: Session, race_id: uuid.UUID, kind: str, data: BaseModel) -> None:
    """Store one of the race's rare events (its row is held: :func:`locked`), and tell its
    stream's watchers in every process once it commits."""
    store.insert_event(session, race_id, kind, data.model_dump_json(), now())
    topic_changed(session, race_id)


def deal_of(secret: bytes, race_id: uuid.UUID) -> SharedDeal:
    """The race's shared deal (its deck and salt are shown once the race is over)."""
    return shared_deal(secret, "race", race_id.hex)


def game_of(games: Mapping[uuid.UUID, GameSummary], racer: Racer) -> GameSummary | None:
    return games.get(racer.game_id) if racer.game_id is not None else None


def parse_position(position: str | None) -> tuple[int, list[str]]:
    """A stream position (an event's id): its rare event number and its racers' marks
    (``422 invalid_last_event_id`` for anything else)."""
    text = topic_position(position, POSITION, "a race")
    if text is None:
        return 0, []
    number, *marks = text.split(".")
    return int(number), marks


def _position(number: int, marks: list[str]) -> str:
    return ".".join([str(number), *marks])


def _mark(game: GameSummary) -> str:
    return f"{game.placements}{'' if game.status == 'in_progress' else 'f'}"


def _ahead(mark: str, seen: str) -> bool:
    """Whether a racer's mark is past the one a watcher saw (a mark only moves forward)."""
    return (int(mark.rstrip("f")), mark.endswith("f")) > (int(seen.rstrip("f")), seen.endswith("f"))


def games_of(session: Executor, racers: list[Racer]) -> dict[uuid.UUID, GameSummary]:
    """The counts of the racers' games, once dealt, by game id."""
    playing = [racer.game_id for racer in racers if racer.game_id is not None]
    return GameService.summaries(session, playing) if playing else {}


def racer_out(racer: Racer, game: GameSummary | None = None, over: bool = False) -> RacerEvent:
    """A racer and its game's counts; ``over``: the race is over, its games public (until then
    a racer's game id is its racer's only, in ``your_game``)."""
    return RacerEvent(
        racer=racer.number,
        name=racer.name,
        registered=racer.registered,
        computer=racer.computer,
        state=game.status if game else "waiting",  # type: ignore[arg-type]
        placements=game.placements if game else 0,
        face_down=game.face_down if game else 0,
        cards_left=game.stock if game else DECK_SIZE,
        score=game.score if game else None,
        rank=racer.rank if over else None,
        game_id=racer.game_id if over else None,
    )
