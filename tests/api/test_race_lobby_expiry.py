"""A lobby nobody starts closes by itself: after ``FOURSQUARE_RACE_LOBBY_MINUTES`` with no join
or leave, the races' ticker closes it (its stream's ``closed``, off the open races, joins
refused), once whichever replica's ticker sees it; a join or a leave keeps it open. On both
databases, on a frozen clock, the app's own ticker off: the tests run its work by hand."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.core.clock import now
from api.races.store import races_due
from api.races.ticker import RaceTicker
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.clock import FrozenClock
from tests.api.test_open_races import listed_ids, open_race, read_events
from tests.api.test_races import bearer, events_of, race_of

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
MINUTES = 30  # the setting's default


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url, migrate_on_start=False, race_worker=False)


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    with fake_clock.frozen(T0) as frozen:
        yield frozen


def tick(client: TestClient, ticker: RaceTicker | None = None) -> None:
    """The ticker's work due now, on the app's own loop (as its task would run it)."""
    assert client.portal is not None
    client.portal.call((ticker or client.app.state.races.ticker).look_after)  # type: ignore[attr-defined]


def race_events(client: TestClient, race_id: str) -> list[tuple[str, Any]]:
    """The race's whole stream (it has ended: the race is closed)."""
    return [
        (kind, data) for _, kind, data in events_of(client.get(f"/races/{race_id}/events").text)
    ]


def test_an_idle_public_lobby_closes_and_leaves_the_open_list_but_an_active_one_stays(
    client: TestClient, clock: FrozenClock
) -> None:
    idle = open_race(client, "ana", public=True, seats=3)
    clock.advance(seconds=1)  # newest first: cyd's, then ana's
    active = open_race(client, "cyd", public=True, seats=3)
    with client.stream("GET", "/races/open/events") as stream:
        lines = stream.iter_text()
        buffer: list[str] = []
        opened = read_events(lines, buffer, 2)
        assert [(kind, data["id"]) for _, kind, data in opened] == [
            ("opened", idle["id"]),
            ("opened", active["id"]),
        ]
        # A join into one of them 20 minutes on: its last activity, not its opening, counts.
        clock.advance(minutes=20)
        joined = client.post(f"/races/{active['id']}/racers", json={"player": "bob"})
        assert joined.status_code == 201, joined.text
        assert read_events(lines, buffer, 1)[0][1] == "changed"
        clock.advance(minutes=MINUTES - 20 - 1)
        tick(client)  # 29 minutes idle: nothing yet
        assert race_of(client, idle["id"])["status"] == "lobby"
        clock.advance(minutes=1)
        tick(client)  # 30 minutes without a join or a leave: closed
        assert race_of(client, idle["id"])["status"] == "closed"
        [(_, kind, data)] = read_events(lines, buffer, 1)
        assert (kind, data) == ("closed", {"id": idle["id"]})
    # Opened 30 minutes ago too, but joined 10 minutes ago: still open, still listed.
    assert race_of(client, active["id"])["status"] == "lobby"
    assert listed_ids(client) == [active["id"]]
    # Its stream tells so, and ends there.
    told = race_events(client, idle["id"])
    assert [kind for kind, _ in told] == ["joined", "closed"]
    assert told[1][1] == {"reason": "idle"}
    # Closed as any closed race: nobody joins it, nor starts or leaves it; nothing changes.
    late = client.post(f"/races/{idle['id']}/racers", json={"player": "dee"})
    assert late.status_code == 409 and late.json()["code"] == "race_not_open", late.text
    for action in ("start", "leave"):
        refused = client.post(f"/races/{idle['id']}/{action}", headers=bearer(idle["racer_token"]))
        assert refused.status_code == 409 and refused.json()["code"] == "race_not_open"
    assert [racer["name"] for racer in race_of(client, idle["id"])["racers"]] == ["ana"]
    assert len(race_events(client, idle["id"])) == 2
    # The active one closes in its turn, 30 minutes after its last join.
    clock.advance(minutes=20)
    tick(client)
    assert race_of(client, active["id"])["status"] == "closed"
    assert listed_ids(client) == []


def test_a_leave_is_activity_and_a_private_lobby_closes_too(
    client: TestClient, clock: FrozenClock
) -> None:
    race = open_race(client, "ana", seats=3)  # private: by its link only
    bob = client.post(f"/races/{race['id']}/racers", json={"player": "bob"}).json()
    clock.advance(minutes=MINUTES - 1)
    left = client.post(f"/races/{race['id']}/leave", headers=bearer(bob["racer_token"]))
    assert left.status_code == 200 and left.json()["status"] == "lobby"
    clock.advance(minutes=MINUTES - 1)
    tick(client)
    assert race_of(client, race["id"])["status"] == "lobby"
    clock.advance(minutes=1)
    tick(client)
    assert race_of(client, race["id"])["status"] == "closed"
    kinds = [kind for kind, _ in race_events(client, race["id"])]
    assert kinds == ["joined", "joined", "left", "closed"]


def test_two_tickers_close_a_lobby_once_and_a_join_first_keeps_it(
    client: TestClient, app: FastAPI, settings: Settings, clock: FrozenClock
) -> None:
    """Two replicas' tickers see the same lobby due: one closes it, the other finds nothing
    to do; and a join committed after the ticker saw the lobby due, before its claim, wins."""
    mine: RaceTicker = app.state.races.ticker
    other = RaceTicker(mine.database, mine.games, mine.pool, mine.secret, settings, mine.budget)
    assert client.portal is not None
    portal = client.portal
    race = open_race(client, "ana", public=True)
    kept = open_race(client, "cyd", public=True)
    clock.advance(minutes=MINUTES)
    idle_since = now() - timedelta(minutes=MINUTES)
    # Both replicas read the due races before either closes one.
    due = partial(races_due, at=now(), idle_since=idle_since)
    seen = [portal.call(ticker.database.read, due) for ticker in (mine, other)]
    assert [{row.id for row in rows} for rows in seen] == [{_id(race), _id(kept)}] * 2
    # Cyd's lobby is joined in between: its closing, claimed on what was seen, finds it active.
    joined = client.post(f"/races/{kept['id']}/racers", json={"player": "bob"})
    assert joined.status_code == 201
    claims = [
        portal.call(
            ticker.database.write, partial(ticker.close_idle, race_id=row.id, idle_since=idle_since)
        )
        for ticker in (mine, other)
        for row in sorted(seen[0], key=lambda row: row.id != _id(race))
    ]
    assert claims == [True, False, False, False]
    assert race_of(client, race["id"])["status"] == "closed"
    assert race_of(client, kept["id"])["status"] == "lobby"
    assert listed_ids(client) == [kept["id"]]
    # Their whole passes now: nothing left to do, no second event.
    tick(client, mine)
    tick(client, other)
    assert [kind for kind, _ in race_events(client, race["id"])] == ["joined", "closed"]
    assert race_of(client, kept["id"])["status"] == "lobby"


def _id(race: dict[str, Any]) -> uuid.UUID:
    return uuid.UUID(race["id"])
