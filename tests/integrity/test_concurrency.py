"""Many clients, two server processes, one database: every game stays a valid replay.

24 clients play the same 8 games through two ``foursquare serve`` processes at once, plain,
with ``If-Match``, and with ``Idempotency-Key`` (one key sent to both servers at the same time,
keys reused for another body, and every keyed request sent again once the games are over).
Afterwards the database is checked row by row (:mod:`tests.integrity.verify`) and every answer
against it (:mod:`tests.integrity.exchanges`). On PostgreSQL the same runs again with the
clients talking to HAProxy (deploy/haproxy.cfg) that spreads their requests over both servers.
"""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server
from tests.integrity import exchanges as checks
from tests.integrity.conftest import ROUTES, Report, check_both_replicas_served, entry_urls
from tests.integrity.players import Load, client, create_games, retry_keyed
from tests.integrity.verify import verify_database

CLIENTS = 24
GAMES = 8

pytestmark = pytest.mark.slow


async def _run(load: Load, seed: int) -> None:
    try:
        await create_games(load, GAMES, random.Random(seed))
        await asyncio.gather(*(client(load, random.Random(seed + i)) for i in range(CLIENTS)))
        await retry_keyed(load, random.Random(seed))
    finally:
        await load.recorder.close()


@ROUTES
def test_concurrent_placements_through_two_servers_keep_every_game_a_replay(
    database_url: str, servers: list[Server], entry: Proxy | None, report: Report
) -> None:
    load = Load(checks.Recorder(entry_urls(servers, entry)))
    asyncio.run(_run(load, seed=4))
    served = check_both_replicas_served(entry, at_least=100) if entry else None
    for server in servers:
        server.stop()

    stored = verify_database(database_url)
    exchanges = load.recorder.exchanges
    checks.check_problems(exchanges)
    acknowledged = checks.check_accepted(exchanges, stored, all_acknowledged=True)
    keys = checks.check_replays(exchanges)

    assert set(stored.games) == {game.id for game in load.games}, "a creation ran twice"
    assert all(game.status != "in_progress" for game in stored.games.values())
    assert stored.pending_keys == 0, "a key is still claimed with no process running it"
    assert acknowledged == stored.placements
    assert keys["replays"] > 0
    report(
        "concurrency",
        {
            "clients": CLIENTS,
            "servers": len(servers),
            "requests_by_replica": served,
            **checks.figures(exchanges),
            "games_verified": len(stored.games),
            "games_by_status": stored.by_status,
            "placements_stored": stored.placements,
            "idempotency_keys": keys,
        },
    )


async def _race_with_if_match(base_urls: list[str], racers: int) -> list[httpx.Response]:
    async with httpx.AsyncClient(timeout=60) as http:
        created = await http.post(f"{base_urls[0]}/games", json={"player": "racer"})
        assert created.status_code == 201, created.text
        game = created.json()
        headers = {"Authorization": f"Bearer {game['token']}", "If-Match": created.headers["etag"]}
        start = asyncio.Event()

        async def place(i: int) -> httpx.Response:
            await start.wait()
            return await http.post(
                f"{base_urls[i % len(base_urls)]}/games/{game['id']}/placements",
                json={"row": 0, "col": 0},
                headers=headers,
            )

        tasks = [asyncio.create_task(place(i)) for i in range(racers)]
        start.set()
        return list(await asyncio.gather(*tasks))


@ROUTES
def test_of_placements_racing_with_the_same_if_match_one_is_201_the_rest_412(
    servers: list[Server], entry: Proxy | None
) -> None:
    racers = 16
    answers = asyncio.run(_race_with_if_match(entry_urls(servers, entry), racers))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses == [201] + [412] * (racers - 1), [a.text for a in answers]
    for answer in answers:
        if answer.status_code == 412:
            problem = answer.json()
            assert problem["code"] == "precondition_failed"
            assert problem["current_version"] == 2
            assert answer.headers["etag"] == '"v2"'
    if entry:
        check_both_replicas_served(entry, at_least=racers // 2 - 1)
