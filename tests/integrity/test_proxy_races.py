"""A race through the shipped HAProxy configuration in front of two real replicas on
PostgreSQL: two racers and the computer race one deal to a ranking while a watcher follows the
race's stream, whichever replica each request lands on. Both replicas' tickers look after the
race, so the deal, the end and each of the computer's placements are claimed: each is done
once (the stream's positions only move forward, the computer's counts only grow, to its
last placement)."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from typing import Any

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server

pytestmark = pytest.mark.slow

DEADLINE = 90.0


@pytest.fixture(autouse=True)
def _fast_races(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicas (started after this) count down and play the computer quickly."""
    monkeypatch.setenv("FOURSQUARE_RACE_COUNTDOWN_SECONDS", "0.5")
    monkeypatch.setenv("FOURSQUARE_RACE_COMPUTER_SECONDS", "0.1")
    monkeypatch.setenv("FOURSQUARE_HINT_PLACEMENTS", "300")


async def _follow(url: str) -> list[dict[str, Any]]:
    """The race's events to its result, reconnecting with Last-Event-ID if cut."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        headers = {"Last-Event-ID": got[-1]["id"]} if got else {}
        fields: dict[str, str] = {}
        async with (
            httpx.AsyncClient(timeout=httpx.Timeout(10, read=30)) as client,
            client.stream("GET", url, headers=headers) as response,
        ):
            async for line in response.aiter_lines():
                if line == "" and "event" in fields:
                    got.append({**fields, "data": json.loads(fields["data"])})
                    if fields["event"] == "result":
                        return got
                    fields = {}
                elif line and not line.startswith(":"):
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
    raise AssertionError(f"no result within {DEADLINE} s: {got[-3:]}")


@pytest.mark.parametrize(("backend", "route"), [("postgresql", "proxy")], indirect=True)
def test_two_racers_and_the_computer_race_across_two_replicas(
    servers: list[Server], entry: Proxy
) -> None:
    async def scenario() -> str:
        rng = random.Random(9)
        async with httpx.AsyncClient(base_url=entry.base_url, timeout=30) as client:
            body = {"player": "ana", "computer": True, "seats": 3}
            opened = (await client.post("/races", json=body)).json()
            race_id: str = opened["id"]
            watcher = asyncio.create_task(_follow(f"{entry.base_url}/races/{race_id}/events"))
            joined = (await client.post(f"/races/{race_id}/racers", json={"player": "bob"})).json()
            tokens = [opened["racer_token"], joined["racer_token"]]  # full: it starts itself
            for token in tokens:
                auth = {"Authorization": f"Bearer {token}"}
                deadline = time.monotonic() + DEADLINE
                while (race := (await client.get(f"/races/{race_id}", headers=auth)).json())[
                    "your_game"
                ] is None:
                    assert time.monotonic() < deadline, race
                    await asyncio.sleep(0.1)
                game = race["your_game"]
                state = (await client.get(f"/games/{game['id']}", headers=auth)).json()
                while state["status"] == "in_progress":
                    placed = await client.post(
                        f"/games/{game['id']}/placements",
                        json=rng.choice(state["legal_placements"]),
                        headers={**auth, "If-Match": f'"v{state["version"]}"'},
                    )
                    assert placed.status_code == 201, placed.text
                    state = placed.json()["game"]
            events = await asyncio.wait_for(watcher, DEADLINE)
            done = (await client.get(f"/races/{race_id}")).json()
        positions = [_position(event["id"]) for event in events]
        assert all(a <= b for a, b in itertools.pairwise(positions)), positions
        assert done["status"] == "finished" and sorted(r["rank"] for r in done["racers"]) == [
            1,
            2,
            3,
        ]
        computer = next(r for r in done["racers"] if r["computer"])
        counts = [
            (e["event"], e["data"]["placements"])
            for e in events
            if e["event"] in ("progress", "finished") and e["data"]["computer"]
        ]
        made = [count for _, count in counts]
        assert made == sorted(set(made)) and counts[-1] == ("finished", computer["placements"])
        assert events[-1]["data"]["racers"] == done["racers"]
        return race_id

    race_id = asyncio.run(scenario())
    # The race's stream went to the proxy's backend for streams (deploy/haproxy.cfg: no
    # buffering of small writes, long timeouts), as a game's does: its line is logged once
    # the stream has ended.
    deadline = time.monotonic() + DEADLINE
    while not (lines := _logged(entry, f"/races/{race_id}/events")):
        assert time.monotonic() < deadline, "the race's stream is not in the proxy's log"
        time.sleep(0.1)
    assert all(" api streams/" in line for line in lines), lines


def _position(event_id: str) -> tuple[int, list[tuple[int, bool]]]:
    """An event id as an ordered value: the rare events' number, then each racer's mark."""
    number, *marks = event_id.split(".")
    return int(number), [(int(mark.rstrip("f")), mark.endswith("f")) for mark in marks]


def _logged(proxy: Proxy, path: str) -> list[str]:
    return [line for line in proxy.log.read_text().splitlines() if f" {path} " in line]
