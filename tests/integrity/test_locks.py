"""Locks held from outside the service: a busy SQLite file, a PostgreSQL row lock and a crash.

* SQLite with ``FOURSQUARE_SQLITE_BUSY_TIMEOUT_MS=100``: while another connection holds the
  write lock (``BEGIN EXCLUSIVE``), a placement is ``503 database_busy`` with ``Retry-After``,
  never 500, and changes nothing; reads go on (WAL); once the lock is released the very same
  requests succeed.
* PostgreSQL: a keyed placement blocked on a row lock is killed with its server (SIGKILL).
  Its claimed key is then ``409 request_in_progress`` until the claim is older than
  ``STALE_CLAIM``, when a retry takes it over and runs the placement exactly once.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from sqlalchemy.engine import make_url

from api.core.database import psycopg_conninfo
from api.idempotency.service import STALE_CLAIM, key_hash
from testkit.server import Server, running_server
from tests.integrity.verify import verify_database

pytestmark = pytest.mark.slow

PROBLEM = "application/problem+json"


def _new_game(http: httpx.Client) -> tuple[str, dict[str, str]]:
    created = http.post("/games", json={"player": "locks"})
    assert created.status_code == 201, created.text
    return created.json()["id"], {"Authorization": f"Bearer {created.json()['token']}"}


def _assert_busy(response: httpx.Response) -> None:
    assert response.status_code == 503, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    assert response.json()["code"] == "database_busy"
    assert int(response.headers["retry-after"]) >= 1


@contextmanager
def _write_lock(path: Path) -> Iterator[sqlite3.Connection]:
    """SQLite's write lock, held by a connection of the test until the block ends."""
    connection = sqlite3.connect(path, isolation_level=None, timeout=10)
    try:
        connection.execute("BEGIN EXCLUSIVE")
        yield connection
        connection.execute("ROLLBACK")
    finally:
        connection.close()


def test_a_held_sqlite_write_lock_is_503_with_retry_after_then_the_same_request_succeeds(
    sqlite_url: str,
) -> None:
    url = sqlite_url
    with (
        running_server(url, extra_env={"FOURSQUARE_SQLITE_BUSY_TIMEOUT_MS": "100"}) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as http,
    ):
        game_id, auth = _new_game(http)
        path = f"/games/{game_id}/placements"
        keyed = {**auth, "Idempotency-Key": "while-locked"}
        with _write_lock(Path(str(make_url(url).database))):
            # Answered while the lock is still held: the request gave up after the busy
            # timeout rather than waiting for the lock (the client's own timeout is 30 s).
            _assert_busy(http.post(path, json={"row": 0, "col": 0}, headers=auth))
            _assert_busy(http.post(path, json={"row": 0, "col": 0}, headers=keyed))
            _assert_busy(http.post("/games", json={"player": "locked-out"}))
            read = http.get(f"/games/{game_id}")
            assert read.status_code == 200 and read.json()["placements_count"] == 0

        placed = http.post(path, json={"row": 0, "col": 0}, headers=keyed)
        assert placed.status_code == 201, placed.text
        assert "idempotent-replayed" not in placed.headers  # the 503 kept no claim
        again = http.post(path, json={"row": 0, "col": 0}, headers=keyed)
        assert again.headers["idempotent-replayed"] == "true" and again.json() == placed.json()
        game = http.get(f"/games/{game_id}").json()
        plain = http.post(path, json=game["legal_placements"][0], headers=auth)
        assert plain.status_code == 201, plain.text
        assert plain.json()["placement"]["number"] == 2
    stored = verify_database(url)
    assert stored.placements == 2 and stored.pending_keys == 0


def _claims(url: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(psycopg_conninfo(url), autocommit=True) as connection:
        return connection.execute(
            "SELECT scope, key_hash, status_code FROM idempotency_keys WHERE key_hash = %s",
            (key_hash("crash-1"),),
        ).fetchall()


def test_a_claim_left_by_a_killed_server_waits_until_stale_then_is_taken_over(
    postgres_url: str, tmp_path: Path
) -> None:
    server = Server(postgres_url, log_path=tmp_path / "server.log")
    server.start()
    try:
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            game_id, auth = _new_game(http)
        path = f"/games/{game_id}/placements"
        headers = {**auth, "Idempotency-Key": "crash-1"}
        lost: list[BaseException] = []

        def doomed() -> None:
            try:
                httpx.post(f"{server.base_url}{path}", json={"row": 0, "col": 0}, headers=headers)
            except httpx.TransportError as exc:  # the server dies under it
                lost.append(exc)

        with psycopg.connect(psycopg_conninfo(postgres_url)) as lock:
            lock.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (uuid.UUID(game_id),))
            request = threading.Thread(target=doomed)
            request.start()
            deadline = time.monotonic() + 20
            while not _claims(postgres_url) and time.monotonic() < deadline:
                time.sleep(0.05)
            assert _claims(postgres_url), "the request never claimed its key"
            time.sleep(0.3)  # now blocked on the row lock, in the middle of its work
            server.kill()
            request.join(timeout=30)
            lock.rollback()
        assert lost, "the request should have lost its server"
        [(scope, _, status)] = _claims(postgres_url)
        assert status is None, "the claim of the killed request is left behind"

        server = Server(postgres_url, port=server.port, log_path=tmp_path / "server.log")
        server.start()
        with httpx.Client(base_url=server.base_url, timeout=30) as http:
            waiting = http.post(path, json={"row": 0, "col": 0}, headers=headers)
            assert waiting.status_code == 409, waiting.text
            assert waiting.json()["code"] == "request_in_progress"
            assert "retry-after" in waiting.headers
            assert http.get(f"/games/{game_id}").json()["placements_count"] == 0

            with psycopg.connect(psycopg_conninfo(postgres_url), autocommit=True) as connection:
                connection.execute(
                    "UPDATE idempotency_keys SET created_at = created_at - %s WHERE scope = %s",
                    (STALE_CLAIM + timedelta(seconds=1), scope),
                )
            taken = http.post(path, json={"row": 0, "col": 0}, headers=headers)
            assert taken.status_code == 201, taken.text
            assert "idempotent-replayed" not in taken.headers
            again = http.post(path, json={"row": 0, "col": 0}, headers=headers)
            assert again.headers["idempotent-replayed"] == "true"
            assert again.json() == taken.json()
    finally:
        server.stop()
    stored = verify_database(postgres_url)
    assert stored.placements == 1 and stored.pending_keys == 0
