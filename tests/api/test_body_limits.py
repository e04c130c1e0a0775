"""A server reached directly protects itself from slow and oversized request bodies
(api/ops/http_limits.py): a real ``foursquare serve`` closes a connection whose body has not
all arrived FOURSQUARE_BODY_TIMEOUT_SECONDS after its head (sent a byte a second, or chunked
and never ended, one or many at once), and answers a body declared or received larger than
FOURSQUARE_MAX_BODY_BYTES with 413 and a closed connection, without reading the rest."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator

import pytest

from testkit.server import Server, running_server
from tests.api.test_header_limits import DEADLINE, answer, closed_within, connect, worker_rss

pytestmark = pytest.mark.slow

BODY_LIMIT = 4096
BODY_TIMEOUT = 1.5
HEADER_TIMEOUT = 30.0  # far longer than the body's: what closes these connections is the body's
MANY = 100


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    path = tmp_path_factory.mktemp("bodies") / "bodies.db"
    with running_server(
        f"sqlite:///{path}",
        extra_env={
            "FOURSQUARE_MAX_BODY_BYTES": str(BODY_LIMIT),
            "FOURSQUARE_BODY_TIMEOUT_SECONDS": str(BODY_TIMEOUT),
            "FOURSQUARE_HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT),
            "FOURSQUARE_RATE_LIMIT_ENABLED": "false",
        },
    ) as running:
        yield running


def post_head(length: int | None, *, close: bool = False) -> bytes:
    """The head of a game's creation with a body of ``length`` bytes (None: chunked)."""
    framing = b"Transfer-Encoding: chunked" if length is None else b"Content-Length: %d" % length
    return (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + framing
        + (b"\r\nConnection: close" if close else b"")
        + b"\r\n\r\n"
    )


def test_a_body_sent_at_once_is_served(server: Server) -> None:
    body = json.dumps({"player": "bodies"}).encode()
    with connect(server) as sock:
        sock.sendall(post_head(len(body), close=True) + body)
        assert answer(sock).startswith(b"HTTP/1.1 201 ")


def test_a_body_sent_a_byte_a_second_is_cut_off(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(post_head(BODY_LIMIT) + b"{")
        # One byte every half second: the whole body (under the limit) would take half an hour.
        assert closed_within(sock, DEADLINE, trickle=b" ")


def test_a_chunked_body_that_never_ends_is_cut_off(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(post_head(None) + b"1\r\n{\r\n")
        assert closed_within(sock, DEADLINE, trickle=b"1\r\n \r\n")


def test_many_slow_bodies_at_once_are_all_cut_off(server: Server) -> None:
    socks = [connect(server) for _ in range(MANY)]
    try:
        for sock in socks:
            sock.sendall(post_head(BODY_LIMIT) + b"{")
        end = time.monotonic() + DEADLINE
        open_ = set(socks)
        while open_ and time.monotonic() < end:
            for sock in list(open_):
                if closed_within(sock, 0.01, trickle=None):
                    open_.discard(sock)
        assert not open_, f"{len(open_)} of {MANY} slow bodies still open after {DEADLINE} s"
    finally:
        for sock in socks:
            sock.close()
    with connect(server) as sock:  # and the server still serves
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert answer(sock).startswith(b"HTTP/1.1 200 ")


def test_a_declared_large_body_gets_413_before_it_is_sent(server: Server) -> None:
    with connect(server) as sock:
        sock.sendall(post_head(50 * 1024 * 1024))
        response = answer(sock)  # returns only once the server has closed the connection
    assert response.startswith(b"HTTP/1.1 413 Request Entity Too Large\r\n"), response
    assert b"application/problem+json" in response
    assert json.loads(response.split(b"\r\n\r\n", 1)[1])["code"] == "payload_too_large"


def send_until_refused(sock: socket.socket, total: int) -> int:
    """Send ``total`` bytes of body, as far as the server lets them be sent: the bytes sent."""
    chunk = b" " * (256 * 1024)
    sent = 0
    sock.settimeout(10)
    with contextlib.suppress(BrokenPipeError, ConnectionResetError, TimeoutError):
        while sent < total:
            sock.sendall(chunk)
            sent += len(chunk)
    return sent


def test_a_large_body_sent_anyway_is_not_read(server: Server) -> None:
    before = worker_rss(server)
    total = 50 * 1024 * 1024
    for framing in (total, None):
        with connect(server) as sock:
            sock.sendall(post_head(framing))
            if framing is None:
                sock.sendall(b"%x\r\n" % total)
            sent = send_until_refused(sock, total)
            with contextlib.suppress(TimeoutError):
                response = answer(sock)
        # The connection was closed long before 50 MB went through: what was sent sits in the
        # two sockets' buffers, never read by the worker.
        assert sent < total, "the server read a 50 MB body"
        assert response == b"" or response.startswith(b"HTTP/1.1 413 "), response[:80]
    grown = worker_rss(server) - before
    assert grown < 16 * 1024 * 1024, f"the worker grew by {grown} bytes"
