"""The open races: the public races in their lobby with a free seat, as a page
(``GET /races/open``) and as a live stream (``GET /races/open/events``).

The stream is a :class:`api.events.Topic` keyed :data:`OPEN_KEY`: every write that changes the
list (a public race opened, joined, left, started or closed) announces it with
:func:`open_list_changed` in its own transaction, and each replica's hub reads the list again
(its heartbeat too, so that a lost notification only delays an event). The stream holds the
newest :data:`WINDOW` open races; a watcher's position (an event's id) is the races it was
sent, each with its count of rare events (``races.events``: a join or a leave moves it), so a
stream resumed with ``Last-Event-ID`` is sent ``closed`` for what left, ``opened`` for what is
new to it and ``changed`` for what moved, and nothing it has already.
"""

from __future__ import annotations

import re
import uuid

from sqlalchemy.orm import Session

from api.core.cursors import open_time_cursor, seal_time_cursor
from api.core.database import Database, Executor
from api.core.errors import InvalidCursor
from api.events import Reading, topic_changed, topic_position
from api.races import store
from api.races.schemas import OpenRaceClosed, OpenRaceOut
from api.races.store import OpenKey, OpenRace

# The open list's topic key: no race's id (a version 5 UUID; races' are version 4).
OPEN_KEY = uuid.uuid5(uuid.NAMESPACE_URL, "foursquare:races:open")
WINDOW = 30  # the newest open races the stream follows (a page of the list shows 20)
EMPTY = "-"  # the position of a watcher sent no race (an empty list)
_ENTRY = r"[0-9a-f]{32}[0-9]{1,5}"
POSITION = re.compile(rf"{EMPTY}|{_ENTRY}(\.{_ENTRY}){{0,{WINDOW - 1}}}", re.ASCII)
POSITION_MAX = WINDOW * 38
_CURSOR_KIND = "open_races"


def open_list_changed(session: Session) -> None:
    """The open list changed in this transaction: its watchers' hubs read it again once it
    commits."""
    topic_changed(session, OPEN_KEY)


def open_out(race: OpenRace) -> OpenRaceOut:
    return OpenRaceOut(
        id=race.id,
        seats=race.seats,
        racers=len(race.names),
        names=list(race.names),
        time_limit=race.time_limit,
        level=race.computer_level,  # type: ignore[arg-type]
        created_at=race.created_at,
    )


class OpenListReading:
    """The newest open races as read at one moment: what each watcher's position lacks."""

    listens: frozenset[uuid.UUID] = frozenset()  # no game's move changes it

    def __init__(self, races: list[OpenRace]) -> None:
        self.races = races
        self._data: dict[uuid.UUID, bytes] = {}

    def _render(self, race: OpenRace) -> bytes:
        # Once per reading, whatever the number of watchers.
        if race.id not in self._data:
            self._data[race.id] = open_out(race).model_dump_json().encode()
        return self._data[race.id]

    def after(self, position: str | None) -> tuple[list[tuple[str, str, bytes]], str, bool]:
        known = parse_position(position)
        sent: list[tuple[str, str, bytes]] = []
        current = {race.id.hex: race for race in self.races}
        for gone in [key for key in known if key not in current]:
            del known[gone]
            data = OpenRaceClosed(id=uuid.UUID(hex=gone)).model_dump_json().encode()
            sent.append(("closed", _position(known), data))
        # Oldest first: a client that puts each new race at the top lists them newest first.
        for race in reversed(self.races):
            was = known.get(race.id.hex)
            if was == race.events:
                continue
            known[race.id.hex] = race.events
            kind = "opened" if was is None else "changed"
            sent.append((kind, _position(known), self._render(race)))
        return sent, _position(known), False


class OpenListTopic:
    """The open list's :class:`api.events.Topic`, read whole each time it changes."""

    def __init__(self, database: Database) -> None:
        self.database = database

    async def read(
        self, key: uuid.UUID, previous: Reading | None, changed: frozenset[uuid.UUID]
    ) -> OpenListReading:
        if isinstance(previous, OpenListReading) and not changed:
            return previous  # nothing changed since (a change of the list names its key)
        races = await self.database.read(lambda session: store.open_races(session, None, WINDOW))
        return OpenListReading(races)


def parse_position(position: str | None) -> dict[str, int]:
    """The races a watcher at ``position`` was sent, each with its count of rare events
    (``422 invalid_last_event_id`` for anything but an event's id)."""
    text = topic_position(position, POSITION, "the open races", longest=POSITION_MAX)
    if text is None or text == EMPTY:
        return {}
    return {entry[:32]: int(entry[32:]) for entry in text.split(".")}


def _position(known: dict[str, int]) -> str:
    return ".".join(f"{key}{events}" for key, events in known.items()) or EMPTY


def page(
    session: Executor, secret: bytes, limit: int, cursor: str | None
) -> tuple[list[OpenRace], str | None]:
    """A page of the open races after ``cursor``, and the next page's cursor (None: the
    last)."""
    after = _decode_cursor(secret, cursor) if cursor else None
    rows = store.open_races(session, after, limit + 1)
    next_cursor = None
    if len(rows) > limit:
        last = rows[limit - 1]
        next_cursor = seal_time_cursor(secret, _CURSOR_KIND, last.created_at, last.id)
    return rows[:limit], next_cursor


def _decode_cursor(secret: bytes, cursor: str) -> OpenKey:
    key = open_time_cursor(secret, cursor, _CURSOR_KIND)
    if key is None:
        raise InvalidCursor("not a cursor of the open races; start again without one")
    return key
