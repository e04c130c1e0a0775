"""The list of games being played, kept live: ``event: game`` on ``GET /events`` when a game
begins or ends, through a real ``foursquare serve`` on each database (SQLite: the process's
own publisher; PostgreSQL: its notifications), and the list leaving out games untouched longer
than the expiry allows."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from psycopg import sql
from sqlalchemy.engine import make_url

from api.core.database import psycopg_conninfo
from testkit.databases import ADMIN_URL
from testkit.server import Server, running_server

pytestmark = pytest.mark.slow

DEADLINE = 30.0  # seconds any wait may take before the test fails
# A few seconds: the list's cut-off for games untouched too long (FOURSQUARE_ABANDON_AFTER_HOURS).
ABANDON_HOURS = 0.002


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    env = {"FOURSQUARE_ABANDON_AFTER_HOURS": str(ABANDON_HOURS)}
    with running_server(database_url, log_path=tmp_path / "server.log", extra_env=env) as s:
        yield s


async def site_events(url: str, got: list[dict[str, Any]], opened: asyncio.Event) -> None:
    """Collect the `game` events of the site's stream into ``got`` (until cancelled)."""
    async with (
        httpx.AsyncClient(timeout=httpx.Timeout(10, read=DEADLINE)) as client,
        client.stream("GET", url) as response,
    ):
        assert response.status_code == 200
        opened.set()
        event = ""
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line.partition(":")[2].strip()
            elif line.startswith("data:") and event == "game":
                got.append(json.loads(line.partition(":")[2]))


async def wait_for(got: list[dict[str, Any]], game_id: str, status: str) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        for data in got:
            if data["game_id"] == game_id and data["status"] == status:
                return data
        await asyncio.sleep(0.05)
    raise AssertionError(f"no `game` event {status} for {game_id} in {DEADLINE} s: {got}")


async def play_out(client: httpx.AsyncClient, game: dict[str, Any], seed: int) -> dict[str, Any]:
    """Place random legal cards in ``game`` (its creation's answer) until it ends; its end."""
    auth = {"Authorization": f"Bearer {game['token']}"}
    rng = random.Random(seed)
    state = game
    while state["status"] == "in_progress":
        cell = rng.choice(state["legal_placements"])
        answer = await client.post(f"/games/{game['id']}/placements", json=cell, headers=auth)
        assert answer.status_code == 201, answer.text
        state = answer.json()["game"]
    return state


def no_card(data: Any) -> bool:
    if isinstance(data, dict):
        return "card" not in data and "cards" not in data and all(map(no_card, data.values()))
    return not isinstance(data, list) or all(map(no_card, data))


def test_games_beginning_and_ending_are_announced_without_a_card_challenges_left_out(
    server: Server,
) -> None:
    async def run() -> None:
        got: list[dict[str, Any]] = []
        opened = asyncio.Event()
        reader = asyncio.create_task(site_events(server.base_url + "/events", got, opened))
        await asyncio.wait_for(opened.wait(), DEADLINE)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            # A registered player's daily challenge game: left out until its day closes.
            registered = await client.post("/players", json={"name": "lister"})
            assert registered.status_code == 201, registered.text
            key = registered.json()["key"]
            challenge = await client.post(
                "/games",
                json={"player": "lister", "challenge": "daily"},
                headers={"Authorization": f"Bearer {key}"},
            )
            assert challenge.status_code == 201, challenge.text
            # Then a guest's game, announced as it begins.
            created = (await client.post("/games", json={"player": "guest-one"})).json()
            began = await wait_for(got, created["id"], "in_progress")
            assert began["player"] == "guest-one" and began["registered"] is False
            assert began["cards_placed"] == 0 and began["reason"] is None
            listed = (await client.get("/games", params={"status": "in_progress"})).json()
            row = next(g for g in listed["games"] if g["game_id"] == created["id"])
            assert {k: began[k] for k in row} == row  # the event is the list's row, and more
            # An account's ordinary game is announced as the account's.
            own = await client.post(
                "/games", json={"player": "lister"}, headers={"Authorization": f"Bearer {key}"}
            )
            assert (await wait_for(got, own.json()["id"], "in_progress"))["registered"] is True
            # Played out: its end is announced, with the list's figures and why it ended.
            state = await play_out(client, created, seed=35)
            ended = await wait_for(got, created["id"], state["status"])
            assert ended["cards_placed"] == state["placements_count"]
            assert ended["reason"] == state["end_reason"]
        reader.cancel()
        assert all(no_card(data) for data in got)
        assert challenge.json()["id"] not in {data["game_id"] for data in got}

    asyncio.run(run())


def test_the_list_leaves_out_games_untouched_longer_than_the_expiry(server: Server) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as client:
        created = client.post("/games", json={"player": "idler"}).json()

        def listed() -> bool:
            page = client.get("/games", params={"status": "in_progress", "limit": 100}).json()
            return created["id"] in {g["game_id"] for g in page["games"]}

        assert listed()
        deadline = time.monotonic() + DEADLINE
        while listed():
            assert time.monotonic() < deadline, "an untouched game stayed listed"
            time.sleep(0.5)
        # Still in progress (the expiry has not run): only the list leaves it out.
        assert client.get(f"/games/{created['id']}").json()["status"] == "in_progress"


# The backends of a database's listeners (one per server process while it has watchers).
LISTENERS = "FROM pg_stat_activity WHERE datname = %s AND query LIKE 'LISTEN %%'"


def _listeners(admin: psycopg.Connection[Any], database: str) -> int:
    row = admin.execute(f"SELECT count(*) {LISTENERS}", (database,)).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_games_begun_and_ended_while_the_listener_was_lost_are_sent_once_it_listens_again(
    server: Server, database_url: str
) -> None:
    """PostgreSQL: a NOTIFY sent while a replica's listener is disconnected is lost. Once it
    listens again, the site's streams are sent the games begun or ended meanwhile."""
    database = make_url(database_url).database
    assert database is not None
    allow = sql.SQL("ALTER DATABASE {} WITH ALLOW_CONNECTIONS {}")

    async def run() -> None:
        got: list[dict[str, Any]] = []
        opened = asyncio.Event()
        reader = asyncio.create_task(site_events(server.base_url + "/events", got, opened))
        await asyncio.wait_for(opened.wait(), DEADLINE)
        with psycopg.connect(psycopg_conninfo(ADMIN_URL), autocommit=True) as admin:
            async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
                # Listening, and the server's pools hold connections (new ones are refused
                # below): a game announced as usual, and one to end during the outage.
                ending = (await client.post("/games", json={"player": "ends-unheard"})).json()
                await wait_for(got, ending["id"], "in_progress")
                # Several requests at once: each pool holds more than one connection, so that
                # the server's own background work does not leave a request needing a new one.
                warm = [client.get(f"/games/{ending['id']}") for _ in range(4)]
                warm += [client.post("/games", json={"player": "warm"}) for _ in range(4)]
                assert all(r.status_code < 300 for r in await asyncio.gather(*warm))
                assert _listeners(admin, database) == 1
                admin.execute(allow.format(sql.Identifier(database), sql.SQL("false")))
                try:
                    admin.execute(f"SELECT pg_terminate_backend(pid) {LISTENERS}", (database,))
                    deadline = time.monotonic() + DEADLINE
                    while _listeners(admin, database):
                        assert time.monotonic() < deadline, "the listener was not ended"
                        await asyncio.sleep(0.05)
                    # Unheard: a game begins, another ends.
                    begun = await client.post("/games", json={"player": "begins-unheard"})
                    assert begun.status_code == 201, begun.text
                    state = await play_out(client, ending, seed=37)
                    await asyncio.sleep(1)  # the listener tries, and fails, to connect again
                    assert not [e for e in got if e["game_id"] == begun.json()["id"]]
                finally:
                    admin.execute(allow.format(sql.Identifier(database), sql.SQL("true")))
                # Listening again: both are sent.
                await wait_for(got, begun.json()["id"], "in_progress")
                await wait_for(got, ending["id"], state["status"])
        reader.cancel()

    asyncio.run(run())
