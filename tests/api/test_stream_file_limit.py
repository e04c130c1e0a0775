"""Event streams never exhaust a worker's open files (api/ops/files.py): a real ``foursquare
serve`` under a limit of 1,024 open files (soft and hard, so that it cannot raise it) with the
default FOURSQUARE_EVENTS_MAX_STREAMS of 2,000 admits fewer streams, says how many in its log
and in the ``foursquare_event_streams_limit`` metric, answers every stream past them 503 with
Retry-After (none is reset), logs that it does, and meanwhile ``/readyz`` and ordinary
requests keep answering. On SQLite and PostgreSQL."""

from __future__ import annotations

import contextlib
import re
import socket
from pathlib import Path

import httpx
import pytest

from testkit.server import Server
from tests.support.raw_http import OPEN_FILES

pytestmark = pytest.mark.slow

PAST_THE_LIMIT = 100  # streams asked for once the limit is reached: every one gets 503


def stream(server: Server) -> tuple[socket.socket, bytes]:
    """A connection asking for the site's event stream, and the head of its answer (b"" if the
    connection was reset or closed without one)."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    head = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            if not chunk:
                break
            head += chunk
    return sock, head


def streams_limit(server: Server) -> int:
    metrics = httpx.get(f"{server.base_url}/metrics", timeout=30).text
    found = re.search(r"^foursquare_event_streams_limit(?:\{[^}]*\})? (\S+)$", metrics, re.M)
    assert found, metrics
    return int(float(found.group(1)))


def test_streams_are_refused_before_the_open_files_run_out(
    database_url: str, tmp_path: Path, many_files: None
) -> None:
    log = tmp_path / "server.log"
    server = Server(
        database_url,
        open_files=OPEN_FILES,
        log_path=log,
        extra_env={
            # One client address holds them all: what is tested is the process's limit.
            "FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT": "100000",
            "FOURSQUARE_MAX_CONNECTIONS_PER_CLIENT": "100000",
            "FOURSQUARE_RATE_LIMIT_ENABLED": "false",
        },
    )
    server.start()
    held: list[socket.socket] = []
    try:
        limit = streams_limit(server)
        # Room is left for the database pools, ordinary requests and what the process holds.
        assert 0 < limit <= OPEN_FILES - 200 - 12, limit
        assert f"event streams: at most {limit} in this process" in log.read_text()
        for number in range(limit):
            sock, head = stream(server)
            held.append(sock)
            assert head.startswith(b"HTTP/1.1 200 "), (number, head[:200])
        for _ in range(PAST_THE_LIMIT):
            sock, head = stream(server)
            with sock:
                assert head.startswith(b"HTTP/1.1 503 "), head[:200]
                assert re.search(rb"(?im)^retry-after: \d+\r$", head), head
        # The replica stays in its proxy's pool, and serves everything but streams.
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            for _ in range(10):
                with httpx.Client(base_url=server.base_url, timeout=30) as fresh:
                    assert fresh.get("/readyz").status_code == 200
            created = client.post("/games", json={"player": "crowded"})
            assert created.status_code == 201, created.text
            assert client.get("/leaderboard").status_code == 200
            assert streams_limit(server) == limit
        assert "new streams get 503" in log.read_text()
    finally:
        for sock in held:
            sock.close()
        server.stop()
