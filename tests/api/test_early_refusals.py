"""What the HTTP protocol refuses before the app sees it (api/ops/http_limits.py) is answered
in the service's own voice: a declared 5 MB body's 413 and a 40 KB header's 431 from a real
``foursquare serve`` are problem+json with their ``type`` and ``code``, a ``request_id`` also
sent as ``X-Request-ID`` (the client's own when it sent a sane one), a line in the access log
and a count in ``/metrics``, like any refusal the app makes; so is the 400 for a request
httptools cannot parse (uvicorn's plain text before)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import httpx
import pytest

from testkit.server import Server
from tests.support.raw_http import exchange, problem_of

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("early")
    running = Server(
        f"sqlite:///{folder / 'early.db'}",
        log_path=folder / "server.log",
        log_level="info",
        access_log=True,
    )
    running.start()
    try:
        yield running
    finally:
        running.stop()


def declared_body(request_id: bytes | None) -> bytes:
    return (
        b"POST /games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + (b"X-Request-ID: " + request_id + b"\r\n" if request_id else b"")
        + b"Content-Length: 5000000\r\n\r\n"
    )


def large_head(request_id: bytes | None) -> bytes:
    return (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + (b"X-Request-ID: " + request_id + b"\r\n" if request_id else b"")
        + b"X-Padding: "
        + b"a" * (40 * 1024)
        + b"\r\n\r\n"
    )


def malformed(request_id: bytes | None) -> bytes:
    """A head httptools refuses (a header line with no colon), after the request's id."""
    return (
        b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        + (b"X-Request-ID: " + request_id + b"\r\n" if request_id else b"")
        + b"this line is no header\r\n\r\n"
    )


def requests_counted(server: Server, method: str, status: int) -> float:
    text = httpx.get(f"{server.base_url}/metrics", timeout=30).text
    labels = f'method="{method}",route="unmatched",status="{status}"'
    found = re.search(rf"^foursquare_http_requests_total\{{{labels}\}} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


@pytest.mark.parametrize(
    ("request_of", "method", "status", "code", "keeps_id"),
    [
        (declared_body, "POST", 413, "payload_too_large", True),
        (large_head, "GET", 431, "headers_too_large", True),
        # Refused in the middle of its headers: the client's id may not have been parsed yet.
        (malformed, "GET", 400, "bad_request", False),
    ],
    ids=["413", "431", "400"],
)
def test_a_refusal_before_the_app_is_the_services_problem(
    server: Server, request_of: object, method: str, status: int, code: str, keeps_id: bool
) -> None:
    make = request_of
    assert callable(make)
    before = requests_counted(server, method, status)
    response = exchange(server.port, make(b"my-request-1"))
    assert response.startswith(f"HTTP/1.1 {status} ".encode()), response[:200]
    problem, header = problem_of(response)
    assert problem["type"] == f"urn:foursquare:problem:{code}"
    assert problem["code"] == code
    assert problem["status"] == status
    assert problem["request_id"] == header
    assert header == "my-request-1" or not keeps_id
    sent_id = header
    # Without a request id of the client's, one is made.
    problem, header = problem_of(exchange(server.port, make(None)))
    assert problem["request_id"] == header
    assert re.fullmatch(r"[0-9a-f]{32}", header)
    assert requests_counted(server, method, status) == before + 2
    assert server.log is not None
    lines = [
        json.loads(line)
        for line in server.log.read_text().splitlines()
        if line.startswith("{") and '"logger":"foursquare.access"' in line
    ]
    logged = [line for line in lines if line.get("request_id") in (sent_id, header)]
    assert any(
        line["status"] == status and line["code"] == code and line["method"] == method
        for line in logged
    ), lines[-5:]
