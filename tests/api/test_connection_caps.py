"""A server reached directly stays reachable while one address holds many idle connections
(api/ops/http_limits.py, api/ops/files.py): a real ``foursquare serve`` under a limit of
1,024 open files (soft and hard) caps the connections one client address holds, and its own
in all below its open-file limit. A connection past a cap is answered at once (problem+json,
``X-Request-ID``, ``Retry-After``) and closed, logged and counted, and ``/healthz`` and
``/readyz`` from another address keep answering."""

from __future__ import annotations

import contextlib
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from testkit.server import Server
from tests.support.raw_http import OPEN_FILES, problem_of

pytestmark = pytest.mark.slow

HALF_OPEN = 1000
HOSTILE = "127.0.0.2"  # the many connections come from here; the checks from 127.0.0.1
PARTIAL_HEAD = b"GET /healthz HTTP/1.1\r\nHo"


@contextlib.contextmanager
def serving(tmp_path: Path, **env: str) -> Iterator[Server]:
    server = Server(
        f"sqlite:///{tmp_path / 'caps.db'}",
        open_files=OPEN_FILES,
        log_path=tmp_path / "server.log",
        log_level="info",
        access_log=True,
        extra_env={"FOURSQUARE_RATE_LIMIT_ENABLED": "false", **env},
    )
    server.start()
    try:
        yield server
    finally:
        server.stop()


def half_open(server: Server, count: int) -> list[socket.socket]:
    """``count`` connections from :data:`HOSTILE`, each with a head begun and never ended."""
    held = []
    for _ in range(count):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.settimeout(30)
        sock.bind((HOSTILE, 0))
        sock.connect((server.host, server.port))
        # A connection refused at once may be closed (or reset) before this is sent.
        with contextlib.suppress(OSError):
            sock.sendall(PARTIAL_HEAD)
        held.append(sock)
    return held


def answers(held: list[socket.socket]) -> list[bytes]:
    """What each connection was sent before the server closed it (b"" for those it still
    holds, which send nothing)."""
    found = []
    for sock in held:
        sock.setblocking(False)
        chunks = []
        with contextlib.suppress(OSError):  # nothing to read yet, or reset after the answer
            while chunk := sock.recv(65536):
                chunks.append(chunk)
        found.append(b"".join(chunks))
    return found


def wait_for_answers(held: list[socket.socket], wanted: int) -> list[bytes]:
    """The answers once at least ``wanted`` connections have one (generous deadline)."""
    import time

    deadline = time.monotonic() + 60
    collected: list[bytes] = [b""] * len(held)
    while True:
        for index, got in enumerate(answers(held)):
            collected[index] += got
        if sum(1 for got in collected if got) >= wanted or time.monotonic() > deadline:
            return collected
        time.sleep(0.2)


def metric(server: Server, name: str, labels: str) -> float:
    text = httpx.get(f"{server.base_url}/metrics", timeout=30).text
    found = re.search(rf"^{name}\{{{labels}\}} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def problem(response: bytes) -> dict[str, object]:
    """A refusal's problem, whose request id is the answer's and which says when to retry."""
    parsed, request_id = problem_of(response)
    assert request_id == parsed["request_id"], response[:300]
    assert re.search(rb"(?im)^retry-after: \d+\r$", response.partition(b"\r\n\r\n")[0])
    return parsed


def test_one_address_with_a_thousand_half_open_connections_takes_no_server_offline(
    tmp_path: Path, many_files: None
) -> None:
    with serving(tmp_path) as server:
        held = half_open(server, HALF_OPEN)
        try:
            # From another address, at once: the health checks answer.
            with httpx.Client(base_url=server.base_url, timeout=3) as client:
                assert client.get("/healthz").status_code == 200
                assert client.get("/readyz").status_code == 200
            refused = [got for got in wait_for_answers(held, HALF_OPEN - 50) if got]
            assert len(refused) >= HALF_OPEN - 50, len(refused)
            for got in refused[:5]:
                assert got.startswith(b"HTTP/1.1 429 "), got[:200]
                assert problem(got)["code"] == "too_many_connections"
            counted = metric(server, "foursquare_connections_refused_total", 'limit="client"')
            assert counted >= len(refused)
        finally:
            for sock in held:
                sock.close()
        log = server.log.read_text() if server.log else ""
        assert "open connections capped" in log
        assert log.count('"code":"too_many_connections"') >= len(refused)


def test_past_the_processs_own_cap_connections_are_answered_never_reset(
    tmp_path: Path, many_files: None
) -> None:
    """With no cap per address, the process's cap (below its open-file limit) answers the
    connections past it 503, and the server serves again as soon as they go."""
    with serving(tmp_path, FOURSQUARE_MAX_CONNECTIONS_PER_CLIENT="100000") as server:
        held = half_open(server, HALF_OPEN)
        try:
            # Every connection past the cap is answered; on a busy machine the answers take
            # a while: wait (generous deadline) for as many as the cap must refuse.
            got = wait_for_answers(held, len(held) - (OPEN_FILES - 50) + 1)
            refused = [answer for answer in got if answer]
            assert refused, "no connection was refused"
            for answer in refused:
                assert answer.startswith(b"HTTP/1.1 503 "), answer[:200]
                assert problem(answer)["code"] == "connections_full"
            # The process's cap is below its open-file limit: it still holds a descriptor
            # for everything else (its log says how many connections it admits).
            assert len(held) - len(refused) < OPEN_FILES - 50
        finally:
            for sock in held:
                sock.close()
        with httpx.Client(base_url=server.base_url, timeout=30) as client:
            assert client.get("/readyz").status_code == 200
            counted = metric(server, "foursquare_connections_refused_total", 'limit="total"')
            assert counted >= len(refused)


def streams_limit(server: Server) -> int:
    text = httpx.get(f"{server.base_url}/metrics", timeout=30).text
    found = re.search(r"^foursquare_event_streams_limit(?:\{[^}]*\})? (\S+)$", text, re.M)
    assert found, text
    return int(float(found.group(1)))


def open_stream(server: Server, address: str) -> tuple[socket.socket, bytes]:
    """A connection from ``address`` holding the site's event stream, and its answer's head."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.bind((address, 0))
    sock.connect((server.host, server.port))
    sock.sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
    head = b""
    with contextlib.suppress(ConnectionResetError):
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            if not chunk:
                break
            head += chunk
    return sock, head


def test_with_every_stream_taken_one_address_still_cannot_take_the_reserve(
    tmp_path: Path, many_files: None
) -> None:
    """Every event stream the process admits is held (from many addresses, 20 each), then 400
    half-open connections come from one more: the descriptors kept for ordinary requests are
    not theirs to take, and the health checks answer."""
    with serving(tmp_path) as server:
        held: list[socket.socket] = []
        try:
            limit = streams_limit(server)
            for number in range(limit):
                sock, head = open_stream(server, f"127.0.1.{10 + number // 20}")
                held.append(sock)
                assert head.startswith(b"HTTP/1.1 200 "), (number, head[:200])
            held += half_open(server, 400)
            with httpx.Client(base_url=server.base_url, timeout=3) as client:
                assert client.get("/healthz").status_code == 200
                assert client.get("/readyz").status_code == 200
        finally:
            for sock in held:
                sock.close()
