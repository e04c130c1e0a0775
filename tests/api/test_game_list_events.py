"""The list of games being played, kept live: ``event: game`` on ``GET /events`` when a game
begins, moves or ends, through a real ``foursquare serve`` on each database (SQLite: the
process's own publisher; PostgreSQL: its notifications), never of a daily challenge game of an
open day or a race's game; and the list leaving out games untouched longer than the expiry
allows."""

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

from api.core.database import create_database, psycopg_conninfo
from api.events.hub import EventHub
from api.events.render import FRAMES
from api.events.watchers import Item, Watcher
from api.settings import Settings
from testkit.databases import ADMIN_URL
from testkit.games import place_in, start_game
from testkit.server import Server, running_server
from tests.support.statements import counting

pytestmark = pytest.mark.slow

DEADLINE = 30.0  # seconds any wait may take before the test fails
# A few seconds: the list's cut-off for games untouched too long (FOURSQUARE_ABANDON_AFTER_HOURS).
ABANDON_HOURS = 0.002


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[Server]:
    env = {
        "FOURSQUARE_ABANDON_AFTER_HOURS": str(ABANDON_HOURS),
        # A race dealt at once, its computer racer placing a card every 0.2 s.
        "FOURSQUARE_RACE_COUNTDOWN_SECONDS": "0",
        "FOURSQUARE_RACE_COMPUTER_SECONDS": "0.2",
    }
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


async def wait_for(
    got: list[dict[str, Any]], game_id: str, status: str, cards: int | None = None
) -> dict[str, Any]:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        for data in got:
            counted = cards is None or data["cards_placed"] == cards
            if data["game_id"] == game_id and data["status"] == status and counted:
                return data
        await asyncio.sleep(0.05)
    raise AssertionError(f"no `game` event {status} ({cards}) for {game_id} in {DEADLINE} s: {got}")


async def place_first(client: httpx.AsyncClient, game: dict[str, Any], token: str) -> Any:
    """Place ``game``'s card at its first legal cell; the game after it."""
    answer = await client.post(
        f"/games/{game['id']}/placements",
        json=game["legal_placements"][0],
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text
    return answer.json()["game"]


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


def computer_moved(race: dict[str, Any]) -> bool:
    """Whether the race is dealt and its computer racer has placed a card."""
    moved = any(r["computer"] and r["placements"] > 0 for r in race["racers"])
    return race["your_game"] is not None and moved


def test_moves_are_announced_with_their_counts_and_no_sealed_game_ever(server: Server) -> None:
    async def run() -> None:
        got: list[dict[str, Any]] = []
        opened = asyncio.Event()
        reader = asyncio.create_task(site_events(server.base_url + "/events", got, opened))
        await asyncio.wait_for(opened.wait(), DEADLINE)
        async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as client:
            # Sealed games move first: a daily challenge game of today, and a race's games
            # (the racer's own, and the computer's, which places a card every 0.2 s).
            key = (await client.post("/players", json={"name": "sealer"})).json()["key"]
            daily = await client.post(
                "/games", json={"challenge": "daily"}, headers={"Authorization": f"Bearer {key}"}
            )
            assert daily.status_code == 201, daily.text
            state = daily.json()
            for _ in range(3):
                state = await place_first(client, state, key)
            opened_race = await client.post("/races", json={"player": "racer", "computer": True})
            assert opened_race.status_code == 201, opened_race.text
            race = opened_race.json()
            racer = {"Authorization": f"Bearer {race['racer_token']}"}
            started = await client.post(f"/races/{race['id']}/start", headers=racer)
            assert started.status_code == 200, started.text
            deadline = time.monotonic() + DEADLINE
            while not computer_moved(
                race := (await client.get(f"/races/{race['id']}", headers=racer)).json()
            ):
                assert time.monotonic() < deadline, f"the race did not deal: {race}"
                await asyncio.sleep(0.1)
            race_game = race["your_game"]
            state = (await client.get(f"/games/{race_game['id']}", headers=racer)).json()
            for _ in range(3):
                state = await place_first(client, state, race_game["token"])
            # A guest's game, then each of its moves, announced with its count.
            created = (await client.post("/games", json={"player": "mover"})).json()
            await wait_for(got, created["id"], "in_progress", cards=0)
            state = created
            for placed in range(1, 6):
                state = await place_first(client, state, created["token"])
                moved = await wait_for(got, created["id"], "in_progress", cards=placed)
                assert moved["last_move_at"] is not None
            listed = (await client.get("/games", params={"status": "in_progress"})).json()
            row = next(g for g in listed["games"] if g["game_id"] == created["id"])
            assert {k: moved[k] for k in row} == row  # what the list itself answers now
            # Several at once, in a burst: the last count of each is announced.
            others = [
                (await client.post("/games", json={"player": f"burst-{n}"})).json()
                for n in range(3)
            ]
            states = await asyncio.gather(
                *(place_first(client, other, other["token"]) for other in others)
            )
            states = await asyncio.gather(
                *(
                    place_first(client, s, other["token"])
                    for s, other in zip(states, others, strict=True)
                )
            )
            for other in others:
                await wait_for(got, other["id"], "in_progress", cards=2)
        reader.cancel()
        assert all(no_card(data) for data in got)
        shown = {data["game_id"] for data in got}
        assert shown == {created["id"], *(other["id"] for other in others)}
        # Each game's counts as sent never go back (its reads are made one after another).
        for game_id in shown:
            counts = [d["cards_placed"] for d in got if d["game_id"] == game_id]
            assert counts == sorted(counts), counts

    asyncio.run(run())


async def frames_of(watcher: Watcher, count: int) -> list[dict[str, Any]]:
    """The data of the first ``count`` events offered to ``watcher``."""
    items: list[Item] = []
    while len(items) < count:
        items += await asyncio.wait_for(watcher.take(), DEADLINE)
    return [json.loads(item.frame.partition(b"data: ")[2]) for item in items]


def test_placements_noted_together_make_one_read_of_each_game_moved(database_url: str) -> None:
    """A process's hub reads the games moved since its last read for the list together: six
    placements of three games, one statement per game, each sent once with its last count."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    games = []
    for number in range(3):
        with database.transaction() as session:
            created = start_game(session, f"burst-{number}")
        for cell in ((0, 0), (0, 1)):
            with database.transaction() as session:
                place_in(session, created.id, created.token, cell)
        games.append(created.id)

    async def run() -> tuple[list[dict[str, Any]], int]:
        hub = EventHub(database, FRAMES, queue=10, max_streams=5, max_per_client=5, heartbeat=60)
        watcher = hub.watch("127.0.0.1", None)
        try:
            with counting(database) as seen:
                for number in (1, 2):
                    for game_id in games:
                        hub.receive(f"g:{game_id.hex}:{number}")
                sent = await frames_of(watcher, len(games))
            return sent, seen.reads_of("games")
        finally:
            hub.leave(watcher)
            await hub.drain()
            await database.close()

    sent, reads = asyncio.run(run())
    assert reads == len(games)
    assert sorted(data["game_id"] for data in sent) == sorted(str(g) for g in games)
    assert {data["cards_placed"] for data in sent} == {2}


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
