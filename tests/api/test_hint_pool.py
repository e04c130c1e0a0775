"""Hints in worker processes: the same advice as in-process, a bounded queue answered with
503 ``hints_busy``, a dead worker replaced, and no worker left behind at shutdown."""

from __future__ import annotations

import os
import signal
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from api.core.database import Database
from api.games.records import load_game
from api.hints.errors import HintsBusy
from api.hints.pool import AdvicePool, Keys
from api.settings import Settings
from engine.player.advice import Budget
from testkit.games import compute_hint
from testkit.processes import alive, children, command_line
from testkit.server import Server, running_server
from tests.conftest import MakeGame

# An effort that the wall-clock cap never cuts short, so the advice is reproducible.
PLACEMENTS, MAX_MS = 1_500, 60_000.0
BUDGET = Budget(placements=PLACEMENTS, milliseconds=MAX_MS)
DEADLINE = 90.0


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        migrate_on_start=False,
        hint_placements=PLACEMENTS,
        hint_max_ms=MAX_MS,
    )


def test_a_hint_from_the_pool_equals_the_advice_computed_in_process(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    for row, col in [(0, 0), (0, 1), (1, 1)]:
        placed = client.post(
            f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
        )
        assert placed.status_code == 201
    with database.reading() as connection:
        loaded = load_game(connection, uuid.UUID(game.id))
    expected = compute_hint(loaded, BUDGET)

    response = client.get(f"/games/{game.id}/hint", headers=game.auth)
    assert response.status_code == 200
    answer = response.json()
    estimates = [answer, *answer["alternatives"]]
    assert [(e["placement"]["row"], e["placement"]["col"]) for e in estimates] == [
        (e.position.row, e.position.col) for e in expected.estimates
    ]
    assert [(e["win_probability"], e["expected_score"]) for e in estimates] == [
        (e.win_probability, e.expected_score) for e in expected.estimates
    ]
    assert answer["simulated_placements"] == expected.simulated_placements


# ---------------------------------------------------------------- against a real server


def _hint_workers(pid: int) -> list[int]:
    """The server's hint workers: the processes that multiprocessing spawned to run jobs, below
    gunicorn's master and its uvicorn workers (its resource tracker is one too, but runs
    ``resource_tracker``)."""
    return [
        child
        for child in children(pid, recursive=True)
        if any("spawn_main" in part for part in command_line(child))
    ]


def _new_game(http: httpx.Client) -> dict[str, str]:
    created = http.post("/games", json={"player": "hinted"})
    assert created.status_code == 201
    body = created.json()
    return {"id": body["id"], "token": body["token"]}


def _hint(http: httpx.Client, game: dict[str, str]) -> httpx.Response:
    return http.get(
        f"/games/{game['id']}/hint", headers={"Authorization": f"Bearer {game['token']}"}
    )


def _hints_at_once(
    http: httpx.Client, games: list[dict[str, str]]
) -> list[tuple[dict[str, str], httpx.Response]]:
    """A hint for each game, every request sent at the same moment from its own thread."""
    start = threading.Barrier(len(games))
    results: list[tuple[dict[str, str], httpx.Response]] = []

    def ask(game: dict[str, str]) -> None:
        start.wait()
        results.append((game, _hint(http, game)))

    threads = [threading.Thread(target=ask, args=(game,)) for game in games]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


@pytest.fixture
def one_worker_server(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    """One hint worker and no queue, at an effort that keeps it busy for ~1 s per hint (the
    wall-clock cap ends each one)."""
    with running_server(
        sqlite_url,
        log_path=tmp_path / "server.log",
        extra_env={
            "FOURSQUARE_HINT_WORKERS": "1",
            "FOURSQUARE_HINT_QUEUE": "0",
            "FOURSQUARE_HINT_PLACEMENTS": "100000000",
            "FOURSQUARE_HINT_MAX_MS": "1000",
        },
    ) as server:
        yield server


def test_a_full_hint_pool_answers_503_hints_busy_and_the_refused_game_is_unchanged(
    one_worker_server: Server,
) -> None:
    with httpx.Client(base_url=one_worker_server.base_url, timeout=DEADLINE) as http:
        deadline = time.monotonic() + DEADLINE
        refused: list[tuple[dict[str, str], httpx.Response]] = []
        answered = 0
        while not refused and time.monotonic() < deadline:
            # Four clients at once against one worker and no queue: all but the first to
            # arrive find the pool full (unless the requests happen to run one after another,
            # in which case the burst is tried again).
            results = _hints_at_once(http, [_new_game(http) for _ in range(4)])
            assert sorted({r.status_code for _, r in results}) in ([200], [200, 503], [503])
            answered += sum(r.status_code == 200 for _, r in results)
            refused = [(g, r) for g, r in results if r.status_code == 503]
        assert refused, "no hint was ever refused"
        assert answered >= 1
        for game, response in refused:
            assert response.json()["code"] == "hints_busy"
            assert response.headers["content-type"] == "application/problem+json"
            assert int(response.headers["retry-after"]) >= 1
            # A refused request changes nothing: the game was not marked assisted.
            assert http.get(f"/games/{game['id']}").json()["assisted"] is False


def test_a_killed_hint_worker_is_replaced(one_worker_server: Server) -> None:
    with httpx.Client(base_url=one_worker_server.base_url, timeout=DEADLINE) as http:
        game = _new_game(http)
        assert _hint(http, game).status_code == 200
        [worker] = _hint_workers(one_worker_server.pid())
        os.kill(worker, signal.SIGKILL)

        deadline = time.monotonic() + DEADLINE
        statuses = []
        while time.monotonic() < deadline:
            response = _hint(http, game)
            statuses.append(response.status_code)
            if response.status_code == 200:
                break
            # Asked while the pool noticed the death: 503, never a 500.
            assert response.status_code == 503, response.text
            assert response.json()["code"] == "hints_busy"
            time.sleep(0.2)
        assert statuses[-1] == 200, statuses
        assert _hint_workers(one_worker_server.pid()) != [worker]


def test_stopping_the_server_leaves_no_hint_worker_behind(one_worker_server: Server) -> None:
    with httpx.Client(base_url=one_worker_server.base_url, timeout=DEADLINE) as http:
        assert _hint(http, _new_game(http)).status_code == 200
    pid = one_worker_server.pid()
    below = children(pid, recursive=True)
    assert _hint_workers(pid)
    # SIGTERM to the server alone (not its process group, which would kill the workers
    # directly): its shutdown must stop them.
    os.kill(pid, signal.SIGTERM)
    assert one_worker_server.process is not None
    one_worker_server.process.wait(timeout=DEADLINE)
    deadline = time.monotonic() + DEADLINE
    while any(alive(child) for child in below) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [child for child in below if alive(child)]


# ---------------------------------------------------------------- shares of the places


def test_each_client_holds_at_most_its_share_of_the_places() -> None:
    """One worker and four waiting: five places. A client alone holds at most two (half,
    rounded down), so that a client arriving finds one; beside others, less; a client over
    its share is refused while others still get places, and its places back, it gets more."""
    pool = AdvicePool(workers=1, queue=4)
    try:

        def client(name: str) -> Keys:
            return (("address", name),)

        flooder = [pool.admit(client("flooder")) for _ in range(2)]
        with pytest.raises(HintsBusy, match="its share"):
            pool.admit(client("flooder"))
        # A bystander gets a place; with two clients holding places, each may hold one.
        bystander = pool.admit(client("bystander"))
        with pytest.raises(HintsBusy, match="its share"):
            pool.admit(client("bystander"))
        # A third and a fourth client still find places (the flooder holds two: more than
        # its share now, and no more until they are given back).
        third, fourth = pool.admit(client("third")), pool.admit(client("fourth"))
        assert pool.held == 5
        with pytest.raises(HintsBusy, match="all 1 hint workers are busy"):
            pool.admit(client("fifth"))
        for place in (bystander, third, fourth, *flooder):
            pool.release(place)
            pool.release(place)  # idempotent
        assert pool.held == 0
        assert len([pool.admit(client("flooder")) for _ in range(2)]) == 2

        # The credential is a key of its own: one token from two addresses holds one share.
        token = ("credential", "t" * 64)
        pool.close()
        pool = AdvicePool(workers=1, queue=4)
        pool.admit((("address", "a"), token))
        pool.admit((("address", "b"), token))
        with pytest.raises(HintsBusy, match="this credential"):
            pool.admit((("address", "c"), token))
    finally:
        pool.close()
