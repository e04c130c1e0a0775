"""PostgreSQL goes away in the middle of the load and comes back: 503s meanwhile, no 500, no
hang, recovery on its own, and every acknowledged placement still there.

The test runs its own PostgreSQL cluster (:mod:`tests.support.private_postgres`), never the
shared one, and a real ``foursquare serve`` on it. Clients each play their own games with
``If-Match`` (a new game when one ends) and note every placement answered 201. Mid-load the
cluster is stopped (``fast``: sessions are terminated and the server shuts down; ``immediate``:
it quits as if it crashed and replays its WAL on start), kept down for a while, then started
again. Every answer must be a success, a ``412`` after an answer lost to the outage, or a
``503 database_busy`` with ``Retry-After``; no request may take longer than the pool timeout
plus a margin (a client timeout says so, no duration is asserted); placements must succeed
again by themselves; and each game's history must hold every acknowledged placement.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.core import migrate
from testkit.server import Server
from tests.support.private_postgres import PrivateCluster

CLIENTS = 8
POOL_TIMEOUT = 3.0  # FOURSQUARE_DB_POOL_TIMEOUT of the server under test
# No request may take longer than this: the pool timeout, plus a margin for a connection
# attempt (refused at once while the server is down) and a loaded shared machine.
CLIENT_TIMEOUT = POOL_TIMEOUT + 12.0
OUTAGE_SECONDS = 3.0
RECOVERY_DEADLINE = 60.0
PROBLEM = "application/problem+json"

pytestmark = pytest.mark.slow


@dataclass
class Answer:
    client: int
    method: str
    path: str
    sent: float
    received: float
    status: int | None
    code: str | None = None
    retry_after: str | None = None
    content_type: str = ""
    error: str | None = None

    def describe(self) -> str:
        what = self.error or f"{self.status} {self.code or ''}"
        return f"client {self.client} {self.method} {self.path} -> {what}"


@dataclass
class Outage:
    answers: list[Answer] = field(default_factory=list)
    # game id -> {placement number: (row, col, card code)} answered 201
    acknowledged: dict[str, dict[int, tuple[int, int, str]]] = field(default_factory=dict)
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def created(self, after: float = 0.0) -> list[Answer]:
        return [
            a
            for a in self.answers
            if a.status == 201 and a.path.endswith("/placements") and a.received > after
        ]


async def _send(
    http: httpx.AsyncClient, outage: Outage, client: int, method: str, path: str, **kw: Any
) -> tuple[Answer, Any]:
    sent = time.monotonic()
    try:
        response = await http.request(method, path, **kw)
    except httpx.TransportError as exc:  # a timeout included: the service hung
        answer = Answer(client, method, path, sent, time.monotonic(), None, error=repr(exc))
        outage.answers.append(answer)
        return answer, None
    body = response.json() if response.content else None
    answer = Answer(
        client, method, path, sent, time.monotonic(), response.status_code,
        code=body.get("code") if isinstance(body, dict) else None,
        retry_after=response.headers.get("retry-after"),
        content_type=response.headers.get("content-type", ""),
    )  # fmt: skip
    outage.answers.append(answer)
    return answer, body


async def _player(http: httpx.AsyncClient, outage: Outage, client: int) -> None:
    """Play games one after another, one card per read, until told to stop."""
    rng = random.Random(client)
    game: dict[str, Any] | None = None
    while not outage.stop.is_set():
        if game is None:
            answer, body = await _send(
                http, outage, client, "POST", "/games", json={"player": f"outage-{client}"}
            )
            if answer.status != 201:
                await asyncio.sleep(0.1)
                continue
            game = body
            outage.acknowledged[body["id"]] = {}
        assert game is not None
        auth = {"Authorization": f"Bearer {game['token']}"}
        answer, view = await _send(http, outage, client, "GET", f"/games/{game['id']}")
        if answer.status != 200:
            await asyncio.sleep(0.1)
            continue
        if view["status"] != "in_progress":
            game = None
            continue
        target = rng.choice(view["legal_placements"])
        answer, body = await _send(
            http, outage, client, "POST", f"/games/{game['id']}/placements",
            json={"row": target["row"], "col": target["col"]},
            headers={**auth, "If-Match": f'"v{view["version"]}"'},
        )  # fmt: skip
        if answer.status == 201:
            placed = body["placement"]
            outage.acknowledged[game["id"]][placed["number"]] = (
                placed["row"], placed["col"], placed["card"]["code"],
            )  # fmt: skip
        elif answer.status != 412:
            await asyncio.sleep(0.1)


async def _wait_for(condition: Any, deadline: float, what: str) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"gave up waiting: {what}")
        await asyncio.sleep(0.05)


async def _run(server: Server, cluster: PrivateCluster, mode: str) -> dict[str, Any]:
    outage = Outage()
    limits = httpx.Limits(max_connections=CLIENTS * 2)
    async with httpx.AsyncClient(
        base_url=server.base_url, timeout=CLIENT_TIMEOUT, limits=limits
    ) as http:
        players = [asyncio.create_task(_player(http, outage, i)) for i in range(CLIENTS)]
        try:
            await _wait_for(lambda: len(outage.created()) >= 20, 60, "20 placements before")
            went_down = time.monotonic()
            await asyncio.to_thread(cluster.stop, mode)
            down = time.monotonic()
            await asyncio.sleep(OUTAGE_SECONDS)
            starting = time.monotonic()
            await asyncio.to_thread(cluster.start)  # returns once it accepts connections
            up = time.monotonic()
            await _wait_for(
                lambda: bool(outage.created(after=starting)), RECOVERY_DEADLINE, "a 201"
            )
            recovered = min(a.received for a in outage.created(after=starting))
            settled = len(outage.created())
            await _wait_for(lambda: len(outage.created()) >= settled + 20, 60, "20 placements")
        finally:
            outage.stop.set()
            await asyncio.gather(*players, return_exceptions=True)
        histories = {
            game_id: (await http.get(f"/games/{game_id}/placements")).json()
            for game_id in outage.acknowledged
        }
        views = {
            game_id: (await http.get(f"/games/{game_id}")).json() for game_id in outage.acknowledged
        }
    return {
        "outage": outage,
        "went_down": went_down,
        "down": down,
        "starting": starting,
        "up": up,
        "recovered": recovered,
        "histories": histories,
        "views": views,
    }


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_database_restart_mid_load_answers_503_then_recovers_losing_nothing(
    private_postgres_cluster: PrivateCluster, tmp_path: Path, mode: str
) -> None:
    cluster = private_postgres_cluster
    url = cluster.create_database("foursquare")
    migrate.upgrade(url)
    server = Server(
        url,
        log_path=tmp_path / "server.log",
        extra_env={
            "FOURSQUARE_MIGRATE_ON_START": "false",
            "FOURSQUARE_DB_POOL_TIMEOUT": str(POOL_TIMEOUT),
        },
    )
    server.start()
    try:
        run = asyncio.run(_run(server, cluster, mode))
    finally:
        server.stop()
    outage: Outage = run["outage"]
    answers = outage.answers

    hung = [a for a in answers if a.status is None]
    assert not hung, f"no answer within {CLIENT_TIMEOUT}s: {hung[0].describe()}"
    assert not [a for a in answers if a.status == 500], "a 500 (see the server log)"
    for answer in answers:
        if answer.status is not None and answer.status >= 400 and answer.status != 412:
            assert answer.status == 503, answer.describe()
            assert answer.code == "database_busy", answer.describe()
            assert answer.content_type.startswith(PROBLEM), answer.describe()
            assert answer.retry_after is not None and int(answer.retry_after) >= 0
    during = [a for a in answers if run["down"] <= a.sent and a.received <= run["starting"]]
    assert during, "no request was answered while the database was down"
    assert all(a.status == 503 for a in during), [a.describe() for a in during if a.status != 503]

    stored = 0
    for game_id, placed in outage.acknowledged.items():
        history = run["histories"][game_id]["placements"]
        numbers = [p["number"] for p in history]
        assert numbers == list(range(1, len(history) + 1)), f"{game_id}: {numbers}"
        assert run["views"][game_id]["placements_count"] == len(history)
        assert run["views"][game_id]["version"] == len(history) + 1
        by_number = {p["number"]: (p["row"], p["col"], p["card"]["code"]) for p in history}
        for number, placement in placed.items():
            assert by_number.get(number) == placement, f"{game_id} #{number} lost"
        stored += len(history)

    acknowledged = sum(len(placed) for placed in outage.acknowledged.values())
    # Pooled connections the restart broke each fail one request (no pre-ping) and make
    # SQLAlchemy drop the pool's older connections.
    busy_after = sum(1 for a in answers if a.sent >= run["up"] and a.status == 503)
    statuses: dict[str, int] = {}
    for answer in answers:
        label = f"{answer.status} {answer.code or ''}".strip()
        statuses[label] = statuses.get(label, 0) + 1
    recovery = run["recovered"] - run["starting"]
    print(
        f"\ndatabase outage ({mode} stop, {OUTAGE_SECONDS:.0f} s down, {CLIENTS} clients): "
        f"stop took {run['down'] - run['went_down']:.2f} s, start "
        f"{run['up'] - run['starting']:.2f} s; first 201 {recovery:.2f} s after the start "
        f"began ({run['recovered'] - run['up']:+.2f} s from pg_ctl's return); slowest answer "
        f"{max(a.received - a.sent for a in answers):.2f} s (pool timeout {POOL_TIMEOUT:.0f} s); "
        f"{busy_after} 503s sent after the start; {acknowledged} placements acknowledged, "
        f"{stored} stored; answers {dict(sorted(statuses.items()))}"
    )


def test_a_database_restart_while_idle_costs_one_503_then_the_pool_is_renewed(
    private_postgres_cluster: PrivateCluster, tmp_path: Path
) -> None:
    """No pre-ping (api.core.database): after a restart each pooled connection is dead, the
    first request to use one gets a 503, and SQLAlchemy then drops every older connection of
    the pool, so that one 503 is the whole cost, not one per pooled connection."""
    cluster = private_postgres_cluster
    url = cluster.create_database("foursquare")
    migrate.upgrade(url)
    server = Server(
        url, log_path=tmp_path / "server.log", extra_env={"FOURSQUARE_MIGRATE_ON_START": "false"}
    )
    server.start()
    try:
        with httpx.Client(base_url=server.base_url, timeout=CLIENT_TIMEOUT) as http:

            async def fill_the_pool() -> None:
                async with httpx.AsyncClient(base_url=server.base_url, timeout=60) as client:
                    answers = await asyncio.gather(
                        *(client.post("/games", json={"player": "idle"}) for _ in range(16))
                    )
                assert all(answer.status_code == 201 for answer in answers)

            asyncio.run(fill_the_pool())
            cluster.stop("fast")
            cluster.start()
            answers = [http.post("/games", json={"player": "idle"}) for _ in range(10)]
    finally:
        server.stop()
    labels = [f"{a.status_code} {a.json().get('code', '')}".strip() for a in answers]
    assert set(labels) <= {"201", "503 database_busy"}, labels
    assert labels.count("503 database_busy") <= 1, labels
    assert labels[-1] == "201", labels
    print(f"\nrequests after an idle restart: {labels}")
