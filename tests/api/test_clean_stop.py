"""A clean stop: ``foursquare serve``'s master sent SIGTERM (as a process manager stops it)
after hints were given, an analysis computed and another begun writes no warning to its
stderr (multiprocessing's resource tracker once reported ``There appear to be 5 leaked
semaphore objects``: each uvicorn worker died by the signal it had handled, so none of its
exit ran), and every process exits 0; on SQLite and PostgreSQL."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from testkit.server import Server
from tests.api.test_analysis_processes import FAST, finished_game

pytestmark = pytest.mark.slow

DEADLINE = 120.0  # seconds: generous, the machine is shared
# What a stop must not print: Python's warnings and multiprocessing's leak reports, a
# traceback, an error logged by the server.
SIGNS_OF_AN_UNCLEAN_STOP = (
    "leaked",
    "resource_tracker",
    "Warning",
    "Traceback",
    "[WARNING]",
    "[ERROR]",
    '"level":"warning"',
    '"level":"error"',
    '"level":"critical"',
)


def test_stopping_after_hints_and_analyses_writes_no_warning(
    database_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    # PYTHONWARNINGS: every warning shown, those Python hides by default (ResourceWarning)
    # too, in the server and in the processes it spawns.
    env = {
        **FAST,
        "PYTHONWARNINGS": "default",
        "FOURSQUARE_HINT_WORKERS": "2",
        "FOURSQUARE_ANALYSIS_PLACEMENTS": "2000",
    }
    server = Server(database_url, workers=2, extra_env=env, log_path=log, log_level="info")
    server.start()
    try:
        with httpx.Client(base_url=server.base_url, timeout=60) as client:
            for _ in range(6):
                game = client.post("/games", json={"player": "stopper"}).json()
                answer = client.get(
                    f"/games/{game['id']}/hint",
                    headers={"Authorization": f"Bearer {game['token']}"},
                )
                assert answer.status_code == 200, answer.text
            # One analysis computed, and one begun (or done: either way) when the stop comes.
            for wanted in ("done", "running"):
                game_id = finished_game(server.base_url)
                assert client.post(f"/games/{game_id}/analysis").status_code == 202
                deadline = time.monotonic() + DEADLINE
                state: object = None
                while time.monotonic() < deadline and state not in (wanted, "done"):
                    time.sleep(0.2)
                    state = client.get(f"/games/{game_id}/analysis").json().get("state")
                assert state in (wanted, "done")
        # The master alone, as systemd, Docker or Kubernetes stop a service's main process.
        os.kill(server.pid(), signal.SIGTERM)
        assert server.process is not None
        server.process.wait(timeout=DEADLINE)
    finally:
        server.kill()
    assert server.process.returncode == 0
    written = log.read_text(errors="replace")
    assert "Shutting down" in written or "exiting" in written.lower(), written[-2000:]
    unclean = [
        line for line in written.splitlines() if any(s in line for s in SIGNS_OF_AN_UNCLEAN_STOP)
    ]
    assert not unclean, "\n".join(unclean)
