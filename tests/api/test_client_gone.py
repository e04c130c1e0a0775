"""A client that went away is not a server error. A real ``foursquare serve``, reached over a
bare socket: a chunked body past the limit (the client is answered 413), a malformed chunk
size (400), a body that misses its deadline and a client that closes mid-body each reached
the route's handler as a disconnect, which logged ``unexpected error`` with a traceback and
counted a 500; fifty slow bodies made fifty at once, on demand. Each is now one line at info
(with the request's id, no traceback) and one count in ``foursquare_http_requests_total``
under what happened: the status the client was answered, or ``client_closed``."""

from __future__ import annotations

import json
import re
import socket
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from testkit.server import Server, running_server
from tests.support.raw_http import exchange, problem_of

pytestmark = pytest.mark.slow

BODY_LIMIT = 4096
BODY_TIMEOUT = 1.0
DEADLINE = 60.0
MANY = 30


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("gone")
    with running_server(
        f"sqlite:///{folder / 'gone.db'}",
        log_path=folder / "server.log",
        log_level="info",
        extra_env={
            "FOURSQUARE_MAX_BODY_BYTES": str(BODY_LIMIT),
            "FOURSQUARE_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT),
            "FOURSQUARE_RATE_LIMIT_ENABLED": "false",
        },
    ) as running:
        yield running


def head(request_id: str, *, chunked: bool = True, length: int = 0) -> bytes:
    framing = b"Transfer-Encoding: chunked" if chunked else b"Content-Length: %d" % length
    return (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + b"X-Request-ID: "
        + request_id.encode()
        + b"\r\n"
        + framing
        + b"\r\n\r\n"
    )


def counted(server: Server, status: str) -> float:
    text = httpx.get(f"{server.base_url}/metrics").text
    labels = f'method="POST",route="/games",status="{status}"'
    found = re.search(rf"^foursquare_http_requests_total\{{{labels}\}} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def log_records(server: Server) -> list[dict[str, Any]]:
    assert server.log is not None
    records = []
    for line in server.log.read_text(errors="replace").splitlines():
        if line.startswith("{"):
            records.append(json.loads(line))
    return records


def wait_for(check: Callable[[], bool], what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not check():
        assert time.monotonic() < end, f"never happened: {what}"
        time.sleep(0.05)


def assert_no_fault_logged(server: Server) -> None:
    faults = [r for r in log_records(server) if r["level"] in ("error", "critical")]
    assert not faults, faults[:2]
    assert "Traceback" not in server.log.read_text()  # type: ignore[union-attr]


def assert_logged_once(server: Server, request_id: str, gone: str) -> None:
    def mine() -> list[dict[str, Any]]:
        return [r for r in log_records(server) if r.get("request_id") == request_id]

    wait_for(lambda: bool(mine()), f"a log line for {request_id}")
    [record] = mine()
    assert record["level"] == "info"
    assert record["gone"] == gone
    assert "exception" not in record


def closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed the connection (without an answer) before the deadline."""
    sock.settimeout(DEADLINE)
    try:
        return sock.recv(65536) == b""
    except ConnectionResetError:
        return True


def test_a_chunked_body_past_the_limit_is_a_413_not_a_500(server: Server) -> None:
    before_413, before_500 = counted(server, "413"), counted(server, "500")
    request_id = f"too-large-{uuid.uuid4().hex}"
    answer = exchange(
        server.port,
        head(request_id) + b"1000\r\n" + b" " * 4096 + b"\r\n10\r\n" + b" " * 16 + b"\r\n",
    )
    problem, answered_id = problem_of(answer, 413)
    assert problem["code"] == "payload_too_large"
    assert answered_id == request_id
    wait_for(lambda: counted(server, "413") == before_413 + 1, "the 413 counted")
    assert counted(server, "500") == before_500
    assert_logged_once(server, request_id, "payload_too_large")
    assert_no_fault_logged(server)


def test_a_malformed_chunk_size_is_a_400_not_a_500(server: Server) -> None:
    before_400, before_500 = counted(server, "400"), counted(server, "500")
    request_id = f"bad-chunk-{uuid.uuid4().hex}"
    answer = exchange(server.port, head(request_id) + b"1\r\n{\r\nzz\r\n")
    problem, answered_id = problem_of(answer, 400)
    assert problem["code"] == "bad_request"
    assert answered_id == request_id
    wait_for(lambda: counted(server, "400") == before_400 + 1, "the 400 counted")
    assert counted(server, "500") == before_500
    assert_logged_once(server, request_id, "bad_request")
    assert_no_fault_logged(server)


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "declared"])
def test_a_body_past_its_deadline_is_client_closed_not_a_500(server: Server, chunked: bool) -> None:
    before_closed, before_500 = counted(server, "client_closed"), counted(server, "500")
    request_id = f"slow-{uuid.uuid4().hex}"
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(
            head(request_id, chunked=chunked, length=100) + (b"1\r\n{\r\n" if chunked else b"{")
        )
        assert closed_by_server(sock)
    wait_for(lambda: counted(server, "client_closed") == before_closed + 1, "client_closed counted")
    assert counted(server, "500") == before_500
    assert_logged_once(server, request_id, "body_timeout")
    assert_no_fault_logged(server)


def test_a_client_that_closes_mid_body_is_client_closed_not_a_500(server: Server) -> None:
    before_closed, before_500 = counted(server, "client_closed"), counted(server, "500")
    request_id = f"closed-{uuid.uuid4().hex}"
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        # The head, and part of the body: the handler starts and waits for the rest, and the
        # client closes instead.
        sock.sendall(head(request_id, chunked=False, length=100) + b'{"player"')
    wait_for(lambda: counted(server, "client_closed") == before_closed + 1, "client_closed counted")
    assert counted(server, "500") == before_500
    assert_logged_once(server, request_id, "disconnected")
    assert_no_fault_logged(server)


def test_many_slow_bodies_at_once_make_no_500_and_no_traceback(server: Server) -> None:
    before_closed, before_500 = counted(server, "client_closed"), counted(server, "500")
    ids = [f"many-{n}-{uuid.uuid4().hex}" for n in range(MANY)]
    socks = [socket.create_connection(("127.0.0.1", server.port)) for _ in ids]
    try:
        for sock, request_id in zip(socks, ids, strict=True):
            sock.sendall(head(request_id, chunked=False, length=100) + b"{")
        for sock in socks:
            assert closed_by_server(sock)
    finally:
        for sock in socks:
            sock.close()
    wait_for(lambda: counted(server, "client_closed") == before_closed + MANY, "every one counted")
    assert counted(server, "500") == before_500
    for request_id in ids:
        assert_logged_once(server, request_id, "body_timeout")
    assert_no_fault_logged(server)
