"""What the tests that speak HTTP over a bare socket share: a whole exchange, a refusal's
problem+json read from the raw answer, and room for this process's own thousand sockets.
These tests send what no HTTP client library will (half heads, oversize heads, bodies
declared and never sent), so they read the answer as bytes."""

from __future__ import annotations

import contextlib
import json
import re
import resource
import socket
from collections.abc import Iterator

import pytest

# The open-file limit the servers under test are started with (soft and hard, so that they
# cannot raise it): low enough for a test to reach with its own sockets.
OPEN_FILES = 1024


def exchange(port: int, request: bytes, wait: float = 30.0) -> bytes:
    """Everything the server on ``port`` sends until it closes, without closing our side
    first (it may close before all of ``request`` is sent)."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        with contextlib.suppress(OSError):
            sock.sendall(request)
        chunks = []
        with contextlib.suppress(ConnectionResetError):
            while chunk := sock.recv(65536):
                chunks.append(chunk)
    return b"".join(chunks)


def send_and_drop(port: int, request: bytes, wait: float = 30.0) -> None:
    """Send ``request`` and close the connection without reading a byte of the answer: a
    client whose connection dropped, a proxy's lost answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(request)


def post_request(path: str, body: object, headers: dict[str, str]) -> bytes:
    """A whole ``POST`` of ``body`` as JSON (None: no body) with ``headers``."""
    payload = b"" if body is None else json.dumps(body).encode()
    head = [f"POST {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {len(payload)}"]
    head += ["Content-Type: application/json"] if body is not None else []
    head += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(head) + "\r\n\r\n").encode() + payload


def problem_of(response: bytes, status: int | None = None) -> tuple[dict[str, object], str]:
    """The problem+json body of a raw answer (with ``status``, if given) and the answer's
    ``X-Request-ID``."""
    head, _, body = response.partition(b"\r\n\r\n")
    if status is not None:
        assert head.startswith(f"HTTP/1.1 {status} ".encode()), response[:300]
    # The media type exactly, nothing after it (as the service and the proxy send it).
    assert re.search(rb"(?im)^content-type: application/problem\+json(\r|$)", head), head
    found = re.search(rb"(?im)^x-request-id: (\S+)\r$", head)
    assert found, head
    problem = json.loads(body)
    assert isinstance(problem, dict)
    return problem, found.group(1).decode()


@pytest.fixture
def many_files() -> Iterator[None]:
    """This process's own soft limit raised: it holds a thousand sockets itself."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 4 * OPEN_FILES:
        pytest.skip(f"the tests' hard open-file limit ({hard}) is too low")
    wanted = 4 * OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, wanted), hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
