"""A server reached directly protects itself from oversized and slow request heads
(api/ops/http_limits.py): a real ``foursquare serve`` refuses a head over
FOURSQUARE_MAX_HEADER_BYTES with 431 (or closes the connection while it is still being sent)
without buffering it, and closes a connection whose head is not complete within
FOURSQUARE_HEADER_TIMEOUT_SECONDS."""

from __future__ import annotations

import contextlib
import json
import select
import socket
import time
from collections.abc import Iterator

import psutil
import pytest

from testkit.server import Server, running_server

pytestmark = pytest.mark.slow

LIMIT = 32 * 1024  # the default, said here so the sizes below are relative to it
TIMEOUT = 2.0
DEADLINE = 60.0  # seconds a closed connection is waited for: generous, the machine is shared


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("heads") / "heads.db"
    with running_server(
        f"sqlite:///{path}",
        extra_env={
            "FOURSQUARE_MAX_HEADER_BYTES": str(LIMIT),
            "FOURSQUARE_HEADER_TIMEOUT_SECONDS": str(TIMEOUT),
        },
    ) as running:
        yield running


def connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


def answer(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes (b"" if it only closed or reset)."""
    chunks = []
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


def head(header_bytes: int) -> bytes:
    return (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        + b"X-Padding: "
        + b"a" * header_bytes
        + b"\r\n\r\n"
    )


def worker_rss(server: Server) -> int:
    (worker,) = psutil.Process(server.pid()).children()
    return int(worker.memory_info().rss)


def test_a_head_under_the_limit_is_served(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(head(LIMIT // 2))
        assert answer(sock).startswith(b"HTTP/1.1 200 ")


def test_a_head_over_the_limit_gets_431_and_a_closed_connection(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(head(LIMIT + 8 * 1024))
        response = answer(sock)  # returns only once the server has closed the connection
    assert response.startswith(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"), response
    assert b"application/problem+json" in response


def test_huge_heads_are_refused_without_the_worker_growing(server: Server) -> None:
    before = worker_rss(server)
    chunk = b"a" * (1024 * 1024)
    for _ in range(4):
        with connect(server) as sock:
            sent = 0
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
            # 50 MB of one header, as far as the server lets it be sent.
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                while sent < 50 * len(chunk):
                    sock.sendall(chunk)
                    sent += len(chunk)
                sock.sendall(b"\r\n\r\n")
            response = answer(sock)
        assert sent < 50 * len(chunk) or response.startswith(b"HTTP/1.1 431 "), response[:80]
        assert not response.startswith(b"HTTP/1.1 200 ")
    grown = worker_rss(server) - before
    # Four 50 MB heads buffered would be hundreds of MB; what a worker may hold is the limit
    # plus one read from the socket.
    assert grown < 16 * 1024 * 1024, f"the worker grew by {grown} bytes"
    with connect(server) as sock:  # and it still serves
        sock.sendall(head(16))
        assert answer(sock).startswith(b"HTTP/1.1 200 ")


def closed_within(sock: socket.socket, deadline: float, trickle: bytes | None) -> bool:
    """True once the server has closed ``sock``, sending ``trickle`` every half second
    meanwhile; False if it is still open after ``deadline`` seconds."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        readable, _, _ = select.select([sock], [], [], 0.5)
        if readable:
            try:
                if sock.recv(65536) == b"":
                    return True
            except ConnectionResetError:
                return True
        if trickle is not None:
            try:
                sock.sendall(trickle)
            except (BrokenPipeError, ConnectionResetError):
                return True
    return False


def test_a_trickling_head_is_cut_off(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        # A header line every half second: each byte would once have kept it open.
        assert closed_within(sock, DEADLINE, trickle=b"X-Slow: 1\r\n")


def test_a_connection_that_sends_nothing_is_closed(server: Server) -> None:
    with connect(server) as sock:
        assert closed_within(sock, DEADLINE, trickle=None)


def test_a_kept_alive_connection_serves_several_requests(server: Server) -> None:
    """The head timer is per request: requests on one connection, each sent at once, spread
    over more than the timeout, are all served."""
    with connect(server) as sock:
        for _ in range(3):
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            response = b""
            while b"\r\n\r\n" not in response or not response.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                assert chunk, "the server closed a kept-alive connection between requests"
                response += chunk
            assert response.startswith(b"HTTP/1.1 200 ")
            time.sleep(TIMEOUT * 0.75)


def test_a_long_paths_404_echoes_only_the_start_of_it(server: Server) -> None:
    """The ``instance`` of a problem is cut, with a mark: an answer is never as large as the
    request it refuses."""
    path = "/" + "p" * (30 * 1024)
    with connect(server) as sock:
        request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
        sock.sendall(request.encode())
        response = answer(sock)
    assert response.startswith(b"HTTP/1.1 404 "), response[:200]
    assert len(response) < 2048, len(response)
    problem = json.loads(response.partition(b"\r\n\r\n")[2])
    assert problem["instance"] == path[:256] + "…"
