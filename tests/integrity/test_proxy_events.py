"""Event streams through the shipped HAProxy configuration (deploy/haproxy.cfg) in front of
two real replicas on PostgreSQL: watchers whose replica is killed (SIGKILL) reconnect through
the proxy with ``Last-Event-ID`` and miss nothing, twice nothing. (Idle streams and the proxy's
timeouts: test_proxy_idle_streams.py.)
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server

pytestmark = pytest.mark.slow

PROXY_ON_POSTGRES = pytest.mark.parametrize(
    ("backend", "route"), [("postgresql", "proxy")], indirect=True
)
HEARTBEAT = 5  # seconds: the replicas' FOURSQUARE_EVENTS_HEARTBEAT_SECONDS here
DEADLINE = 90.0


@pytest.fixture(autouse=True)
def _heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicas (started after this) send a heartbeat every few seconds."""
    monkeypatch.setenv("FOURSQUARE_EVENTS_HEARTBEAT_SECONDS", str(HEARTBEAT))


async def _watch(url: str, got: list[dict[str, Any]], reconnects: list[int]) -> None:
    """Follow a game to its end like a browser's EventSource: reconnect (with the last id)
    whenever the stream breaks or closes before ``end``."""
    last: str | None = None
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        headers = {"Last-Event-ID": last} if last is not None else {}
        fields: dict[str, str] = {}
        try:
            async with (
                httpx.AsyncClient(timeout=httpx.Timeout(10, read=30)) as client,
                client.stream("GET", url, headers=headers) as response,
            ):
                if response.status_code != 200:
                    await asyncio.sleep(0.2)  # the proxy's 502/503 while a replica is down
                    continue
                async for line in response.aiter_lines():
                    if line == "":
                        if "event" in fields:
                            got.append({**fields, "data": json.loads(fields["data"])})
                            if fields["event"] == "end":
                                return
                            last = fields.get("id", last)
                        fields = {}
                    elif not line.startswith(":"):
                        name, _, value = line.partition(":")
                        fields[name] = value.strip()
        except httpx.HTTPError:
            pass
        reconnects.append(int(last or 0))
        await asyncio.sleep(0.1)
    raise AssertionError(f"no end within {DEADLINE} s: {got[-3:]}")


@PROXY_ON_POSTGRES
def test_watchers_of_a_killed_replica_reconnect_through_the_proxy_and_miss_nothing(
    servers: list[Server], entry: Proxy
) -> None:
    proxy = entry

    async def scenario() -> None:
        rng = random.Random(6)
        async with httpx.AsyncClient(base_url=proxy.base_url, timeout=30) as client:
            created = (await client.post("/games", json={"player": "proxied"})).json()
            game_id, auth = created["id"], {"Authorization": f"Bearer {created['token']}"}
            url = f"{proxy.base_url}/games/{game_id}/events"
            # Two watchers: "leastconn" puts them on different replicas.
            seen: list[list[dict[str, Any]]] = [[], []]
            reconnects: list[list[int]] = [[], []]
            watchers = [asyncio.create_task(_watch(url, seen[i], reconnects[i])) for i in (0, 1)]
            placed: list[dict[str, Any]] = []
            state = created
            while state["status"] == "in_progress":
                if len(placed) == 5:
                    servers[0].kill()  # SIGKILL: its streams break mid-game
                cell = rng.choice(state["legal_placements"])
                for _ in range(100):  # the proxy retries refused connections; a cut one: 502
                    answer = await client.post(
                        f"/games/{game_id}/placements", json=cell, headers=auth
                    )
                    if answer.status_code == 201 or answer.status_code < 500:
                        break
                    await asyncio.sleep(0.1)
                if answer.status_code == 409:  # applied before its replica died: read it
                    state = (await client.get(f"/games/{game_id}")).json()
                    continue
                assert answer.status_code == 201, answer.text
                placed.append(answer.json()["placement"])
                state = answer.json()["game"]
                await asyncio.sleep(0.05)
            await asyncio.wait_for(asyncio.gather(*watchers), DEADLINE)
            history = (await client.get(f"/games/{game_id}/placements")).json()["placements"]
        for got in seen:
            placements = [event for event in got if event["event"] == "placement"]
            assert [int(event["id"]) for event in placements] == list(range(1, len(history) + 1)), (
                "a gap or a duplicate"
            )
            assert [event["data"] for event in placements] == history
            assert got[-1]["event"] == "end"
            assert got[-1]["data"]["placements"] == len(history)
        assert any(reconnects), "neither watcher was on the killed replica"

    asyncio.run(scenario())
    assert " api streams/" in proxy.log.read_text(errors="replace")
