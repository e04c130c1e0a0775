"""The database pools hold under load: a warm ``foursquare serve`` on PostgreSQL answers a burst
of 32 concurrent readers without opening a single connection (a pool that overflowed would
close a connection on every return and open one again on the next checkout: a backend started
and set up again, every statement prepared again). Counted by PostgreSQL itself, in
``pg_stat_database.sessions`` for the test's own database."""

from __future__ import annotations

import asyncio
import json

import pytest

from testkit.databases import sessions_opened
from testkit.http import HttpConnection
from testkit.server import Server, running_server

pytestmark = pytest.mark.slow

READERS = 32  # concurrent clients, each on its own keep-alive connection
READS_PER_READER = 40  # in each burst, a game and the leaderboard's first page in turn


async def burst(clients: list[HttpConnection], game_ids: list[str]) -> None:
    """Every client at once, each reading games and the leaderboard in turn. The clients are
    :mod:`testkit.http`'s, light enough that the server, not they, is the bottleneck: it has
    requests from most of them waiting at any moment, more than its pools hold."""

    async def reader(number: int, client: HttpConnection) -> set[int]:
        statuses = set()
        for read in range(READS_PER_READER):
            game = game_ids[(number + read) % len(game_ids)]
            path = f"/games/{game}" if read % 2 == 0 else "/leaderboard"
            statuses.add((await client.request("GET", path)).status)
        return statuses

    answers = await asyncio.gather(*(reader(n, c) for n, c in enumerate(clients)))
    assert set().union(*answers) == {200}


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_warm_server_opens_no_connection_for_a_burst_of_32_readers(database_url: str) -> None:
    async def run(server: Server) -> tuple[int, int]:
        clients = [HttpConnection(server.host, server.port) for _ in range(READERS)]
        try:
            # A game each, all at once: the writes' pool opens a connection for each write
            # turn, as the server's background work (analyses, races) may need them.
            body = json.dumps({"player": "reader"}).encode()
            created = await asyncio.gather(
                *(client.request("POST", "/games", body) for client in clients)
            )
            assert [response.status for response in created] == [201] * READERS
            game_ids = [response.json()["id"] for response in created]
            # Warm: the reads' pool opens all it keeps under 32 readers, once.
            for _ in range(2):
                await burst(clients, game_ids)
            before = sessions_opened(database_url)
            await burst(clients, game_ids)
            return before, sessions_opened(database_url)
        finally:
            for client in clients:
                await client.close()

    with running_server(database_url) as server:
        before, after = asyncio.run(run(server))
    assert after == before, f"{after - before} sessions opened during a burst on a warm server"
