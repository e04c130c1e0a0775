"""HAProxy as shipped (deploy/haproxy.cfg) refuses what a replica would, in the service's own
voice: a body declared over 4 KiB gets 413 at once (not a 408 after waiting 10 s for it), a
head over 32 KiB gets 431 (not HAProxy's HTML 400), both problem+json with their ``code``, a
``request_id`` that is also ``X-Request-ID`` (the client's own when sane), a line in the
proxy's log and a count in its metrics."""

from __future__ import annotations

import contextlib
import re
import socket
import time

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server
from tests.support.raw_http import exchange, problem_of

pytestmark = pytest.mark.slow

PROXY_ON_POSTGRES = pytest.mark.parametrize(
    ("backend", "route"), [("postgresql", "proxy")], indirect=True
)


def responses_4xx(proxy: Proxy) -> float:
    text = httpx.get(f"http://127.0.0.1:{proxy.metrics_port}/metrics", timeout=30).text
    found = re.search(
        r'^haproxy_frontend_http_responses_total\{proxy="api",code="4xx"\} (\S+)$', text, re.M
    )
    assert found, text[:2000]
    return float(found.group(1))


@PROXY_ON_POSTGRES
def test_the_proxy_refuses_oversize_requests_as_the_service_does(
    servers: list[Server], entry: Proxy
) -> None:
    proxy = entry

    # A body declared over the limit, none of it sent: 413 at once, not a 408 in 10 s.
    declared = (
        b"POST /games HTTP/1.1\r\nHost: proxy\r\nContent-Type: application/json\r\n"
        b"X-Request-ID: big-body-1\r\nContent-Length: 5000000\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", proxy.port), timeout=5) as sock:
        sock.sendall(declared)
        head = b""
        # A generous deadline for the answer, yet shorter than HAProxy's 10 s wait for a body.
        sock.settimeout(8)
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(65536)
            assert chunk, head
            head += chunk
        with contextlib.suppress(OSError, TimeoutError):
            sock.settimeout(2)
            while chunk := sock.recv(65536):
                head += chunk
    problem, request_id = problem_of(head, 413)
    assert problem["code"] == "payload_too_large"
    assert problem["type"] == "urn:foursquare:problem:payload_too_large"
    assert problem["request_id"] == request_id == "big-body-1"

    # A head over the service's limit: 431, with an id the proxy made.
    big = b"X-Padding: " + b"a" * (40 * 1024) + b"\r\n"
    response = exchange(
        proxy.port, b"GET /healthz HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n" + big + b"\r\n"
    )
    problem, request_id = problem_of(response, 431)
    assert problem["code"] == "headers_too_large"
    assert problem["request_id"] == request_id
    assert re.fullmatch(r"[0-9a-f-]{36}", request_id), request_id

    # A client's id is kept as the service keeps it (any visible ASCII, quotes too: the body
    # stays JSON); one the service would not keep is replaced, never echoed.
    for sent, kept in ((b'"quoted"\\', True), (b"two words", False), (b"x" * 129, False)):
        response = exchange(
            proxy.port,
            b"GET /healthz HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n"
            + b"X-Request-ID: "
            + sent
            + b"\r\n"
            + big
            + b"\r\n",
        )
        problem, request_id = problem_of(response, 431)
        assert problem["request_id"] == request_id
        assert (request_id == sent.decode()) is kept, request_id

    # A head the proxy cannot even buffer (over 47 KiB) is still refused before a replica,
    # by HAProxy's parser (its own HTML 400: HAProxy 2.6 takes no errorfile for it).
    huge = b"X-Padding: " + b"a" * (60 * 1024) + b"\r\n"
    response = exchange(
        proxy.port,
        b"GET /healthz HTTP/1.1\r\nHost: proxy\r\nConnection: close\r\n" + huge + b"\r\n",
    )
    assert response.startswith(b"HTTP/1.1 400 "), response[:300]

    # Ordinary requests still pass, bodies and all.
    created = httpx.post(f"{proxy.base_url}/games", json={"player": "proxied"}, timeout=30)
    assert created.status_code == 201, created.text

    # Logged by the proxy, and counted in its metrics.
    end = time.monotonic() + 30
    while True:
        log = proxy.log.read_text(errors="replace")
        if (" 413 " in log and " 431 " in log) or time.monotonic() > end:
            break
        time.sleep(0.2)
    assert re.search(r" 413 .*\{big-body-1\}", log), log[-3000:]
    assert " 431 " in log, log[-3000:]
    assert responses_4xx(proxy) >= 5  # the 413, four 431s and the 400; the proxy's own 4xx
