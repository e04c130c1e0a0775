"""Analyses with real server processes on one PostgreSQL database: each analysis is computed by
exactly one process, and a job whose process was killed is finished by another."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, Row, create_engine, select
from sqlalchemy.orm import Session

from api.analysis import store as analysis_store
from api.analysis.tables import analyses
from api.core.clock import now
from testkit.games import start_game
from testkit.server import Server, running_server

DEADLINE = 240.0  # seconds: generous, the machine is shared
FAST = {
    "FOURSQUARE_ANALYSIS_PLACEMENTS": "200",
    "FOURSQUARE_ANALYSIS_POLL_SECONDS": "0.2",
    "FOURSQUARE_ANALYSIS_HEARTBEAT_SECONDS": "0.5",
    "FOURSQUARE_ANALYSIS_STALE_SECONDS": "4",
    "FOURSQUARE_ANALYSIS_SOLVER_NODES": "20000",
    "FOURSQUARE_LOG_FORMAT": "json",
}


# PostgreSQL only: SKIP LOCKED claims across processes are what is tested. The shared
# ``backend`` fixture skips without PostgreSQL, or fails when it is required (as in CI).
pytestmark = [
    pytest.mark.parametrize("backend", ["postgresql"], indirect=True),
    pytest.mark.slow,  # real servers computing analyses: the slow tier
]


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = create_engine(database_url)
    yield engine
    engine.dispose()


def analysis_row(engine: Engine, game_id: str) -> Row[Any] | None:
    """The job's whole row (its claim and attempts included: the runner's, not a reader's)."""
    with engine.connect() as connection:
        return connection.execute(
            select(analyses).where(analyses.c.game_id == uuid.UUID(game_id))
        ).first()


def finished_game(base_url: str) -> str:
    """A game played to its end over HTTP (always the first legal placement)."""
    with httpx.Client(base_url=base_url, timeout=30) as client:
        created = client.post("/games", json={"player": "analyst"}).json()
        auth = {"Authorization": f"Bearer {created['token']}"}
        state: dict[str, Any] = created
        while state["status"] == "in_progress":
            placed = client.post(
                f"/games/{created['id']}/placements",
                json=state["legal_placements"][0],
                headers=auth,
            )
            assert placed.status_code == 201, placed.text
            state = placed.json()["game"]
        return str(created["id"])


def wait_for(engine: Engine, game_id: str, states: set[str]) -> Row[Any]:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        record = analysis_row(engine, game_id)
        if record is not None and record.state in states:
            return record
        time.sleep(0.1)
    pytest.fail(f"the analysis of {game_id} did not reach {states} within {DEADLINE} s")


def computed_lines(*logs: Path) -> list[dict[str, Any]]:
    """The "computed by" log lines of the servers (JSON lines)."""
    lines = []
    for log in logs:
        for line in log.read_text(errors="replace").splitlines():
            if line.startswith("{") and "computed by" in line:
                lines.append(json.loads(line))
    return lines


def test_two_processes_asked_at_once_compute_each_analysis_exactly_once(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    with (
        running_server(database_url, extra_env=FAST, log_path=logs[0], log_level="info") as a,
        running_server(database_url, extra_env=FAST, log_path=logs[1], log_level="info") as b,
    ):
        games = [finished_game(a.base_url) for _ in range(3)]

        def ask(target: tuple[Server, str]) -> int:
            server, game_id = target
            return httpx.post(f"{server.base_url}/games/{game_id}/analysis", timeout=30).status_code

        # Every game asked for four times on each server, all at once.
        targets = [(server, game) for game in games for server in (a, b) for _ in range(4)]
        with ThreadPoolExecutor(max_workers=8) as pool:
            statuses = list(pool.map(ask, targets))
        assert set(statuses) <= {200, 202}, statuses
        done = {game: wait_for(engine, game, {"done", "failed"}) for game in games}
        for game in games:
            for server in (a, b):
                answer = httpx.get(f"{server.base_url}/games/{game}/analysis", timeout=30)
                assert answer.status_code == 200 and answer.json()["state"] == "done"
    lines = computed_lines(*logs)
    for game, record in done.items():
        assert record.state == "done", record.error
        assert record.attempts == 1  # claimed once: computed once
        mine = [line for line in lines if line.get("game_id") == game]
        assert len(mine) == 1, mine  # one process, in either server, computed it
        assert mine[0]["computed_by"] == record.claimed_by


def test_two_claimers_at_once_never_get_the_same_job(engine: Engine, database_url: str) -> None:
    """The claim statement itself: while one transaction holds a job, a second claimer skips
    it (it neither waits nor takes it) and gets the next one; a third finds none left."""
    long_ago = now() - timedelta(minutes=1)
    with engine.begin() as connection, Session(bind=connection) as session:
        games = [_stored_game(session) for _ in range(2)]
        for number, game_id in enumerate(games):
            at = long_ago + timedelta(seconds=number)
            assert analysis_store.insert_analysis_if_absent(session, game_id, 1, at)
            assert not analysis_store.insert_analysis_if_absent(session, game_id, 1, at)
    stale_before = now() - timedelta(seconds=30)
    with (
        engine.connect() as one_connection,
        engine.connect() as two_connection,
        Session(bind=one_connection) as one,
        Session(bind=two_connection) as two,
    ):
        first = analysis_store.claim_analysis(one, "one", now(), stale_before, 3)
        second = analysis_store.claim_analysis(two, "two", now(), stale_before, 3)  # not blocked
        assert first is not None and second is not None
        assert (first, second) == (games[0], games[1])
        one.commit()
        two.commit()
    with engine.connect() as connection, Session(bind=connection) as third:
        assert analysis_store.claim_analysis(third, "three", now(), stale_before, 3) is None


def _stored_game(session: Session) -> uuid.UUID:
    return start_game(session, "claimer").id


def test_a_job_held_by_a_killed_process_is_finished_by_another(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    # The first server computes slowly (a big effort per placement), so that it is surely
    # holding the claim when it is killed.
    slow = {**FAST, "FOURSQUARE_ANALYSIS_PLACEMENTS": "200000"}
    first = Server(database_url, extra_env=slow, log_path=tmp_path / "first.log")
    first.start()
    try:
        game = finished_game(first.base_url)
        asked = httpx.post(f"{first.base_url}/games/{game}/analysis", timeout=30)
        assert asked.status_code == 202
        held = wait_for(engine, game, {"running"})
        assert held.claimed_by is not None and held.attempts == 1
        running = httpx.get(f"{first.base_url}/games/{game}/analysis", timeout=30)
        assert running.status_code == 202 and running.json()["state"] == "running"
        assert running.headers["retry-after"] == "1"
        progress = running.json()["progress"]
        assert 0 <= progress["reviewed"] < progress["total"]
    finally:
        first.kill()  # SIGKILL to the whole process group: server, worker, analysis worker
    dead = analysis_row(engine, game)
    assert dead is not None and dead.state == "running" and dead.claimed_by == held.claimed_by
    with running_server(database_url, extra_env=FAST, log_path=tmp_path / "second.log") as second:
        done = wait_for(engine, game, {"done", "failed"})
        assert done.state == "done", done.error
        assert done.attempts == 2
        assert done.claimed_by != held.claimed_by
        answer = httpx.get(f"{second.base_url}/games/{game}/analysis", timeout=30)
        assert answer.status_code == 200
        assert answer.json()["progress"]["reviewed"] == answer.json()["progress"]["total"]
