"""The hint workers are shared fairly (api/hints/pool.py): a real ``foursquare serve`` with the
default pool (one worker, four waiting) and the default rate limits, behind a trusted proxy
(127.0.0.1, so ``X-Forwarded-For`` names each client). One address floods hints on five games'
tokens while a bystander at another address asks every half second: the bystander is answered
every time (a tester's got 27 ``503 hints_busy`` in 30), and the flooder's refusals for capacity
cost it nothing of its rate limits (the tester's bystander was then refused 429 for the
refusals it had been given)."""

from __future__ import annotations

import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from testkit.server import Server, running_server

pytestmark = pytest.mark.slow

FLOODER, BYSTANDER = "198.51.100.7", "203.0.113.9"
TOKENS = 5
AT_ONCE = 2  # requests in flight on each token: ten at once, twice the pool's places
FLOOD_SECONDS = 10.0
PACE = 0.5  # the bystander's: a person asking now and then
DEADLINE = 60.0
HINT_PER_CREDENTIAL, HINT_PER_ADDRESS = 30, 120  # the defaults, per minute


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    with running_server(
        sqlite_url,
        log_path=tmp_path / "server.log",
        migrate_on_start=False,
        extra_env={
            "FOURSQUARE_TRUSTED_PROXIES": "127.0.0.1",
            "FOURSQUARE_RATE_LIMIT_ENABLED": "true",  # (the tests' default is off)
            # Each hint keeps the worker busy for its whole wall-clock cap (~0.3 s).
            "FOURSQUARE_HINT_PLACEMENTS": "100000000",
            "FOURSQUARE_HINT_MAX_MS": "300",
        },
    ) as running:
        yield running


def _game(http: httpx.Client, address: str) -> dict[str, str]:
    created = http.post("/games", json={"player": "hinted"}, headers={"X-Forwarded-For": address})
    assert created.status_code == 201, created.text
    body = created.json()
    game = {"Authorization": f"Bearer {body['token']}", "X-Forwarded-For": address}
    # One card placed: the next has several places to go, so a hint has work to do.
    placed = http.post(f"/games/{body['id']}/placements", json={"row": 0, "col": 0}, headers=game)
    assert placed.status_code == 201, placed.text
    # And marked assisted (its version up once) before the flood: hints asked at once on one
    # game would otherwise race to mark it, and all but one get 409 version_conflict.
    game = {**game, "id": body["id"]}
    assert _hint(http, game).status_code == 200
    return game


def _hint(http: httpx.Client, game: dict[str, str]) -> httpx.Response:
    headers = {name: value for name, value in game.items() if name != "id"}
    return http.get(f"/games/{game['id']}/hint", headers=headers)


def _remaining(response: httpx.Response, policy: str) -> int:
    found = re.search(rf'"{policy}";r=(\d+)', response.headers["ratelimit"])
    assert found, response.headers["ratelimit"]
    return int(found.group(1))


def _answered(http: httpx.Client, game: dict[str, str]) -> httpx.Response:
    """A hint once the flood is over (a last job of the flood may still hold the worker)."""
    end = time.monotonic() + DEADLINE
    while (response := _hint(http, game)).status_code == 503:
        assert time.monotonic() < end, response.text
        time.sleep(0.1)
    return response


def test_a_bystander_is_answered_while_another_address_floods_and_refusals_cost_no_quota(
    server: Server,
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=DEADLINE) as http:
        flooded = [_game(http, FLOODER) for _ in range(TOKENS)]
        bystander = _game(http, BYSTANDER)
        flood: Counter[tuple[str, int]] = Counter()  # (token's game, status)
        stop = threading.Event()

        lock = threading.Lock()

        def flooder(game: dict[str, str]) -> None:
            while not stop.is_set():
                status = _hint(http, game).status_code
                with lock:
                    flood[game["id"], status] += 1

        threads = [
            threading.Thread(target=flooder, args=(game,))
            for game in flooded
            for _ in range(AT_ONCE)
        ]
        for thread in threads:
            thread.start()
        try:
            # The flood under way: the pool is full of the flooder's hints.
            end = time.monotonic() + DEADLINE
            while not sum(n for (_, status), n in flood.items() if status == 503):
                assert time.monotonic() < end, "the flood never filled the pool"
                time.sleep(0.01)
            asked: list[tuple[int, str]] = []
            end = time.monotonic() + FLOOD_SECONDS
            while time.monotonic() < end:
                response = _hint(http, bystander)
                asked.append((response.status_code, response.text[:200]))
                time.sleep(PACE)
        finally:
            stop.set()
            for thread in threads:
                thread.join()

        assert [status for status, _ in asked] == [200] * len(asked), asked
        refused = sum(n for (_, status), n in flood.items() if status == 503)
        answered = {game["id"]: flood[game["id"], 200] for game in flooded}
        assert refused > 0 and sum(answered.values()) > 0, flood
        assert not [key for key in flood if key[1] not in (200, 503)], flood

        # Only the answered hints were counted: each flooder token's quota is down by its own
        # answers (with the one before the flood and this one), whatever number of 503s it
        # was given.
        for game in flooded:
            last = _answered(http, game)
            assert last.status_code == 200, last.text
            assert _remaining(last, "hint-credential") == (
                HINT_PER_CREDENTIAL - answered[game["id"]] - 2
            ), (answered, flood)
        assert _remaining(last, "hint-address") == (
            HINT_PER_ADDRESS - sum(answered.values()) - 2 * TOKENS
        )
        last = _answered(http, bystander)
        assert _remaining(last, "hint-credential") == HINT_PER_CREDENTIAL - len(asked) - 2
