"""HAProxy as shipped (deploy/haproxy.cfg) limits each client address itself, since the
replicas exempt it from theirs: one address holds at most 100 connections through it (300
half-open ones were all held), and sends at most 1000 requests in 10 s, past which it is
answered 429 in the service's voice while another address is served. /metrics is not served
to the public through it. Its own refusals are the service's where HAProxy 2.6 lets them be:
a version other than HTTP/1.0 or 1.1 is refused as a replica refuses it, a slow head gets no
answer (as a replica gives none), and its parser's own 400 stays what docs/operations.md
says."""

from __future__ import annotations

import contextlib
import re
import select
import socket
import time
from pathlib import Path

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server
from tests.integrity.conftest import running_proxy
from tests.support.raw_http import exchange, problem_of

pytestmark = pytest.mark.slow

PROXY_ON_POSTGRES = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)

# The shipped limits (deploy/haproxy.cfg's defaults).
CONNECTIONS_PER_CLIENT = 100
REQUESTS_PER_CLIENT = 1000
PARTIAL_HEAD = b"GET /healthz HTTP/1.1\r\nHo"


def exchange_from(address: str, port: int, request: bytes, wait: float = 30.0) -> bytes:
    """:func:`exchange`, from ``address`` (a loopback address of its own: another client)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(wait)
        sock.bind((address, 0))
        sock.connect(("127.0.0.1", port))
        with contextlib.suppress(OSError):
            sock.sendall(request)
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


def get(path: str, request_id: str | None = None, method: str = "GET") -> bytes:
    extra = f"X-Request-ID: {request_id}\r\n" if request_id else ""
    return f"{method} {path} HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n{extra}\r\n".encode()


def metric(proxy: Proxy, name: str) -> float:
    text = httpx.get(f"http://127.0.0.1:{proxy.metrics_port}/metrics", timeout=30).text
    found = re.search(rf'^{name}\{{proxy="api"\}} (\S+)$', text, re.M)
    assert found, text[:2000]
    return float(found.group(1))


def closed(sock: socket.socket) -> bool:
    """Whether the proxy has closed (or reset) ``sock``, without waiting."""
    readable, _, _ = select.select([sock], [], [], 0)
    if not readable:
        return False
    try:
        return sock.recv(65536) == b""
    except OSError:
        return True


@PROXY_ON_POSTGRES
def test_one_address_holds_at_most_its_share_of_the_proxys_connections(
    servers: list[Server], tmp_path: Path
) -> None:
    with running_proxy(servers, tmp_path, per_client_limits=True) as proxy:
        started = time.monotonic()
        held: list[socket.socket] = []
        try:
            for _ in range(CONNECTIONS_PER_CLIENT + 50):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.bind(("127.0.0.2", 0))
                sock.connect(("127.0.0.1", proxy.port))
                with contextlib.suppress(OSError):  # a refused one may be reset already
                    sock.sendall(PARTIAL_HEAD)
                held.append(sock)
            # The 50 past the cap are closed at once; the others are held until their head's
            # deadline ("timeout http-request", 10 s after each opened): counted before it.
            deadline = started + 8
            refused: list[socket.socket] = []
            while time.monotonic() < deadline:
                refused += [sock for sock in held if sock not in refused and closed(sock)]
                if len(refused) >= 50:
                    break
                time.sleep(0.1)
            assert time.monotonic() < started + 9.5, "too slow to count before the deadline"
            assert len(refused) == 50, len(refused)
            # Another address is served meanwhile, and so is this one once it holds fewer.
            served = httpx.get(f"{proxy.base_url}/healthz", timeout=30)
            assert served.status_code == 200, served.text
        finally:
            for sock in held:
                sock.close()
        assert metric(proxy, "haproxy_frontend_denied_connections_total") >= 50
        end = time.monotonic() + 30
        while True:
            again = exchange_from("127.0.0.2", proxy.port, get("/healthz"))
            if again.startswith(b"HTTP/1.1 200 ") or time.monotonic() > end:
                break
            time.sleep(0.2)
        assert again.startswith(b"HTTP/1.1 200 "), again[:300]


@PROXY_ON_POSTGRES
def test_a_flooding_address_is_refused_in_the_services_voice_and_metrics_are_private(
    servers: list[Server], tmp_path: Path
) -> None:
    with running_proxy(servers, tmp_path, per_client_limits=True) as proxy:
        # /metrics is not served through the proxy, in any spelling a replica would take for
        # it, nor for HEAD: the proxy answers 404 as the service answers any unknown path.
        for request in (get("/metrics"), get("/%6detrics?x=1"), get("/metrics", method="HEAD")):
            answer = exchange_from("127.0.0.3", proxy.port, request)
            assert answer.startswith(b"HTTP/1.1 404 "), answer[:300]
            assert b"# HELP" not in answer and b"foursquare_" not in answer, answer[:300]
        problem, request_id = problem_of(exchange_from("127.0.0.3", proxy.port, get("/metrics")))
        assert problem["code"] == "not_found"
        assert problem["request_id"] == request_id
        # The proxy's own metrics stay on their own port (for the operator: compose publishes
        # it on the host's loopback only).
        assert metric(proxy, "haproxy_frontend_connections_total") > 0

        # 1000 requests in 10 s from one address are served (these cheaply: the proxy answers
        # each itself); the next is refused, 429 rate_limited with Retry-After and an id.
        sent = 4
        while sent < REQUESTS_PER_CLIENT:
            answer = exchange_from("127.0.0.3", proxy.port, get("/metrics"))
            assert answer.startswith(b"HTTP/1.1 404 "), (sent, answer[:300])
            sent += 1
        refused = exchange_from("127.0.0.3", proxy.port, get("/healthz", "flood-1"))
        problem, request_id = problem_of(refused, 429)
        assert problem["code"] == "rate_limited"
        assert problem["type"] == "urn:foursquare:problem:rate_limited"
        assert problem["request_id"] == request_id == "flood-1"
        assert re.search(rb"(?im)^retry-after: 10\r$", refused), refused[:300]
        # Another address is served meanwhile.
        served = exchange_from("127.0.0.1", proxy.port, get("/healthz"))
        assert served.startswith(b"HTTP/1.1 200 "), served[:300]
        log = proxy.log.read_text(errors="replace")
        end = time.monotonic() + 30
        while not re.search(r" 429 .*\{flood-1\}", log) and time.monotonic() < end:
            time.sleep(0.2)
            log = proxy.log.read_text(errors="replace")
        assert re.search(r" 429 .*\{flood-1\}", log), log[-3000:]


@PROXY_ON_POSTGRES
def test_the_proxys_own_refusals_are_the_services_where_haproxy_allows(
    servers: list[Server], tmp_path: Path
) -> None:
    with running_proxy(servers, tmp_path) as proxy:
        # A version HAProxy's parser takes but a replica refuses: refused as the replica does.
        nine = b"GET /healthz HTTP/9.9\r\nHost: proxy\r\nX-Request-ID: v99\r\n\r\n"
        direct, _ = problem_of(exchange(servers[0].port, nine), 400)
        problem, request_id = problem_of(exchange(proxy.port, nine), 400)
        assert problem["code"] == direct["code"] == "bad_request"
        assert problem["request_id"] == request_id == "v99"
        # HTTP/1.0 still passes.
        old = exchange(proxy.port, b"GET /healthz HTTP/1.0\r\n\r\n")
        assert old.startswith(b"HTTP/1.1 200 "), old[:300]

        # A head not finished in time: no answer at all, as from a replica (not an HTML 408).
        started = time.monotonic()
        slow = exchange(proxy.port, PARTIAL_HEAD, wait=60)
        assert slow == b"", slow[:300]
        assert time.monotonic() - started >= 9, "closed before its head's deadline"

        # What HAProxy 2.6's parser refuses itself stays its HTML 400 (docs/operations.md):
        # refused before any replica, at least.
        nul = exchange(proxy.port, b"GET /he\x00althz HTTP/1.1\r\nHost: proxy\r\n\r\n")
        assert nul.startswith(b"HTTP/1.1 400 "), nul[:300]
