"""No process outlives ``foursquare serve``'s master: with two workers, hints given (so hint
workers run) and an analysis in flight (so an analysis worker computes), SIGKILL to the master
alone leaves, within a generous deadline, none of its descendants alive (uvicorn workers,
hint and analysis workers, multiprocessing's resource trackers)."""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import psutil
import pytest

from testkit.server import Server
from tests.api.test_analysis_processes import FAST, finished_game

pytestmark = pytest.mark.slow

DEADLINE = 120.0  # seconds: generous, the machine is shared


def alive(process: psutil.Process) -> bool:
    """Running and not a zombie waiting to be reaped (an orphan's new parent reaps it)."""
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def started_for(database_url: str) -> list[psutil.Process]:
    """Every live process started for this test's server, found by the database URL that all
    of them (the master, its workers and everything they spawn) have in their environment:
    also those started after the master died."""
    found = []
    for process in psutil.process_iter():
        with contextlib.suppress(psutil.Error):
            if process.environ().get("FOURSQUARE_DATABASE_URL") == database_url and alive(process):
                found.append(process)
    return found


def wait_until(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    pytest.fail(f"{what} within {DEADLINE} s")


def describe(processes: list[psutil.Process]) -> str:
    lines = []
    for process in processes:
        with contextlib.suppress(psutil.Error):
            lines.append(f"{process.pid} (parent {process.ppid()}) {process.cmdline()}")
    return "; ".join(lines)


def test_killing_the_master_mid_analysis_leaves_no_descendant(tmp_path: Path) -> None:
    # A big effort per placement: the analysis worker is surely computing when the master dies.
    slow = {**FAST, "FOURSQUARE_ANALYSIS_PLACEMENTS": "200000"}
    database_url = f"sqlite:///{tmp_path / 'orphans.db'}"
    server = Server(
        database_url,
        workers=2,
        extra_env=slow,
        log_path=tmp_path / "server.log",
    )
    server.start()
    descendants: list[psutil.Process] = []
    try:
        master = psutil.Process(server.pid())
        workers = master.children()
        assert len(workers) == 2

        def hint() -> None:
            with httpx.Client(base_url=server.base_url, timeout=60) as client:
                game = client.post("/games", json={"player": "orphan"}).json()
                answer = client.get(
                    f"/games/{game['id']}/hint",
                    headers={"Authorization": f"Bearer {game['token']}"},
                )
                assert answer.status_code == 200, answer.text

        # Hints, two at a time on connections of their own (one address's share of a server
        # process's hint places, api/hints), until both workers have started a hint worker
        # (beside their resource tracker): which worker accepts a connection is the kernel's
        # choice, and one after another it may always be the same one.
        with ThreadPoolExecutor(max_workers=2) as pool:
            for _ in range(50):
                list(pool.map(lambda _: hint(), range(2)))
                if all(len(worker.children()) >= 2 for worker in workers):
                    break
        assert all(len(worker.children()) >= 2 for worker in workers), describe(
            master.children(recursive=True)
        )
        before = {worker.pid: len(worker.children()) for worker in workers}
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            game_id = finished_game(server.base_url)
            assert client.post(f"/games/{game_id}/analysis").status_code == 202

            def running() -> bool:
                state: object = client.get(f"/games/{game_id}/analysis").json().get("state")
                return state == "running"

            wait_until(running, "the analysis was not running")
        # The analysis worker (a worker's child) is spawned at its first step.
        wait_until(
            lambda: any(len(worker.children()) > before[worker.pid] for worker in workers),
            "no worker started an analysis worker",
        )
        descendants = master.children(recursive=True)
        # Two uvicorn workers, each with a resource tracker and a hint worker, and an analysis
        # worker.
        assert len(descendants) >= 7, describe(descendants)
        assert {process.pid for process in descendants} <= {
            process.pid for process in started_for(database_url)
        }
        os.kill(server.pid(), signal.SIGKILL)
        assert server.process is not None
        server.process.wait(timeout=30)
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline and started_for(database_url):
            time.sleep(0.2)
        left = started_for(database_url)
        assert not left, f"still alive {DEADLINE} s after the master died: {describe(left)}"
    finally:
        # Whatever is left is this test's own: end it, by pid.
        for process in [*descendants, *started_for(database_url)]:
            with contextlib.suppress(psutil.Error):
                process.kill()
        server.kill()
