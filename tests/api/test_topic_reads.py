"""What a process's hub reads when a feature's stream (a :class:`api.events.Topic`) changes,
on SQLite and PostgreSQL.

A topic's notice tells its read that the topic itself changed (its key among ``changed``,
with the last reading), and the topic decides what to read again: a tournament only the
events after the last one read (its events are only ever added), where reading all of them at
each of its thousands of events cost a replica a read of the whole stream per deal finished;
a race, all of it. The hub here is a process's own, on the app's database and loop, fed the
notices by hand as the PostgreSQL listener would."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.events import InvalidLastEventId
from api.events.announce import Notice
from api.events.hub import EventHub
from api.events.render import FRAMES
from api.events.watchers import Item
from api.races.open_list import parse_position as open_position
from api.races.stream import RaceTopic
from api.races.stream import parse_position as race_position
from api.settings import Settings
from api.tournaments.stream import TournamentTopic
from api.tournaments.stream import parse_position as tournament_position
from testkit import clock as fake_clock
from testkit.clock import FrozenClock
from tests.api.test_tournaments import T0, create, guest
from tests.support.statements import counting

DEADLINE = 30.0


@pytest.fixture
def app(database_url: str) -> FastAPI:
    """Its ticker off: the hub under test is this test's, not the app's."""
    return create_app(
        Settings(database_url=database_url, migrate_on_start=False, tournament_worker=False)
    )


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    with fake_clock.frozen(T0) as frozen:
        yield frozen


class Recorded:
    """A topic that passes each read on and remembers what it was asked."""

    def __init__(self, topic: Any) -> None:
        self.topic = topic
        self.asked: list[tuple[bool, frozenset[uuid.UUID]]] = []

    async def read(self, key: uuid.UUID, previous: Any, changed: frozenset[uuid.UUID]) -> Any:
        self.asked.append((previous is not None, changed))
        return await self.topic.read(key, previous, changed)


async def _read_after_a_notice(
    app: FastAPI, key: uuid.UUID, topic: Recorded, change: Any
) -> tuple[Any, Any, list[str]]:
    """The topic's first reading by a process's hub, then ``change`` made (through the API),
    its notice received, and the reading the hub offered its watcher after it, with the
    statements that read it."""
    database = app.state.database
    hub = EventHub(database, FRAMES, queue=10, max_streams=5, max_per_client=5, heartbeat=60)
    watcher = hub.watch("127.0.0.1", key, topic)
    assert watcher.feed is not None
    try:
        first = await hub.read_topic(watcher.feed)
        await asyncio.to_thread(change)
        with counting(database) as seen:
            hub.receive(Notice("topic", key).payload)
            items: list[Item] = await asyncio.wait_for(watcher.take(), DEADLINE)
        return first, items[-1].reading, seen.texts
    finally:
        hub.leave(watcher)
        await hub.drain()


def test_a_tournaments_notice_reads_only_its_new_events(
    client: TestClient, app: FastAPI, clock: FrozenClock
) -> None:
    tournament = create(client, guests=True)
    key = uuid.UUID(tournament["id"])
    for name in ("ann", "bob", "cyd"):
        guest(client, tournament["id"], name)
    topic = Recorded(TournamentTopic(app.state.database))
    assert client.portal is not None
    first, reading, statements = client.portal.call(
        _read_after_a_notice, app, key, topic, lambda: guest(client, tournament["id"], "dee")
    )
    kinds = [event.kind for event in first.events]
    assert kinds.count("joined") == 3 and first.last == len(kinds)
    # Asked with the last reading and its own key; read: the events after the last one, and
    # not the tournament again.
    assert topic.asked == [(False, frozenset()), (True, frozenset({key}))]
    assert len(statements) == 1 and "tournament_events" in statements[0], statements
    sent, position, done = reading.after(str(first.last))
    assert [kind for kind, _, _ in sent] == [e.kind for e in reading.events[first.last :]]
    assert [json.loads(data)["entry"]["name"] for kind, _, data in sent if kind == "joined"] == [
        "dee"
    ]
    assert position == str(reading.last) and reading.last > first.last and not done
    # A watcher further back, or new, is sent what it lacks of the whole stream.
    numbers = [str(n) for n in range(1, reading.last + 1)]
    assert [event_id for _, event_id, _ in reading.after("1")[0]] == numbers[1:]
    assert [event_id for _, event_id, _ in reading.after(None)[0]] == numbers


def test_a_races_notice_reads_it_whole(client: TestClient, app: FastAPI) -> None:
    opened = client.post("/races", json={"player": "ana"})
    assert opened.status_code == 201, opened.text
    race_id = opened.json()["id"]
    key = uuid.UUID(race_id)
    topic = Recorded(RaceTopic(app.state.database))

    def join() -> None:
        joined = client.post(f"/races/{race_id}/racers", json={"player": "bob"})
        assert joined.status_code == 201, joined.text

    assert client.portal is not None
    first, reading, _ = client.portal.call(_read_after_a_notice, app, key, topic, join)
    assert topic.asked == [(False, frozenset()), (True, frozenset({key}))]
    assert [racer.name for racer in first.racers] == ["ana"]
    assert [racer.name for racer in reading.racers] == ["ana", "bob"]


@pytest.mark.parametrize(
    ("parse", "good", "read", "stream"),
    [
        (tournament_position, " 12 ", 12, "a tournament"),
        (race_position, "3.5.7f", (3, ["5", "7f"]), "a race"),
        (open_position, f"{'a' * 32}4", {"a" * 32: 4}, "the open races"),
    ],
)
def test_a_topics_last_event_id_is_its_own_or_refused(
    parse: Any, good: str, read: Any, stream: str
) -> None:
    """Each topic takes apart the ids its stream sends, reads none as its start, and refuses
    anything else with ``422 invalid_last_event_id`` naming its stream."""
    assert parse(good) == read
    assert parse(None) == parse("  ") == parse_blank(parse)
    for bad in ("x", "1 2", "-1", good.strip() + "/", "9" * 200):
        with pytest.raises(InvalidLastEventId, match=f"is no event of {stream}"):
            parse(bad)


def parse_blank(parse: Any) -> Any:
    """What a stream from its start reads as a position, whatever the topic."""
    return {tournament_position: 0, race_position: (0, []), open_position: {}}[parse]
