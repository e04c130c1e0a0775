"""The proxy's log (deploy/haproxy.cfg) holds every request, the ones nobody answered included.

A replica killed with requests in hand must not leave requests that the proxy never logged:
one of them may have been stored, and the log is where an operator looks. Keep-alive clients
send requests while one replica is stopped (its kernel still takes them), the replica is then
killed, and every request that got no answer from the service must be in the log, found by
its X-Request-ID, with a termination state saying who cut it off. Requests a client abandons
or sends too slowly are logged too, with the client's termination states.
"""

from __future__ import annotations

import os
import signal
import socket
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from testkit.proxy import Proxy
from testkit.server import Server

pytestmark = pytest.mark.slow

PROXY_ON_POSTGRES = pytest.mark.parametrize(
    ("backend", "route"), [("postgresql", "proxy")], indirect=True
)
CLIENTS = 8


def _log_lines(proxy: Proxy) -> list[str]:
    return proxy.log.read_text(errors="replace").splitlines()


def _line_of(proxy: Proxy, request_id: str) -> str | None:
    """The proxy's line for the request with this X-Request-ID ({braces}: the captured id)."""
    lines = [line for line in _log_lines(proxy) if f"{{{request_id}}}" in line]
    assert len(lines) <= 1, lines
    return lines[0] if lines else None


def _wait_for(
    condition: Callable[[], bool], what: str | Callable[[], str], deadline: float = 30.0
) -> None:
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, (
            f"gave up waiting for {what if isinstance(what, str) else what()}"
        )
        time.sleep(0.05)


def _unread(port: int) -> list[tuple[int, int]]:
    """(peer port, unread bytes) of each established connection to ``port`` on loopback: for a
    stopped server, a request its kernel took and nobody read (one a connection: HTTP/1.1).
    Read from ``/proc/net/tcp``: psutil lists connections but not their receive queues."""
    found = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local_port = int(fields[1].split(":")[1], 16)
        peer_port = int(fields[2].split(":")[1], 16)
        if local_port == port and fields[3] == "01":  # ESTABLISHED
            found.append((peer_port, int(fields[4].split(":")[1], 16)))
    return found


def _waiting_requests(port: int) -> int:
    return sum(1 for _, unread in _unread(port) if unread > 0)


def _termination_state(line: str) -> str:
    """The 4 letters of option httplog's termination state ("----" when answered normally):
    the field after the two captured cookies ("- -")."""
    fields = line.split()
    index = next(i for i in range(len(fields) - 2) if fields[i : i + 2] == ["-", "-"])
    return fields[index + 2]


@PROXY_ON_POSTGRES
def test_every_request_a_dying_replica_cut_off_is_in_the_proxy_log(
    servers: list[Server], entry: Proxy
) -> None:
    proxy, dying = entry, servers[0]
    clients = [httpx.Client(base_url=proxy.base_url, timeout=60) for _ in range(CLIENTS)]
    try:
        # Keep-alive clients: each has already been answered on its connection.
        for client in clients:
            assert client.get("/healthz").status_code == 200
        os.killpg(dying.pid(), signal.SIGSTOP)
        ids = [uuid.uuid4().hex for _ in clients]

        def create(index: int) -> int | str:
            headers = {"X-Request-ID": ids[index], "Idempotency-Key": str(uuid.UUID(ids[index]))}
            try:
                return clients[index].post("/games", headers=headers).status_code
            except httpx.TransportError as error:  # no answer at all
                return repr(error)

        with ThreadPoolExecutor(CLIENTS) as pool:
            futures: list[Future[int | str]] = [pool.submit(create, i) for i in range(CLIENTS)]
            # Every request is answered by the live replica or waits in the stopped one. (The
            # proxy's health checks wait there too, so this may hold a moment early: a request
            # still in the proxy then finds the replica dead and goes to the other one.)
            _wait_for(
                lambda: sum(f.done() for f in futures) + _waiting_requests(dying.port) >= CLIENTS,
                "every request to reach a replica",
            )
            dying.kill()
            outcomes = [future.result() for future in futures]
    finally:
        for client in clients:
            client.close()

    unanswered = [ids[i] for i, outcome in enumerate(outcomes) if outcome != 201]
    assert unanswered, f"round-robin sent nothing to the stopped replica: {outcomes}"
    # The proxy logs a request when it ends: right after its answer (or its lack of one).
    _wait_for(
        lambda: all(_line_of(proxy, request_id) for request_id in ids),
        lambda: f"a line per request (none for {[i for i in ids if not _line_of(proxy, i)]})",
    )
    for index, request_id in enumerate(ids):
        line = _line_of(proxy, request_id)
        assert line is not None
        state = _termination_state(line)
        if request_id in unanswered:
            # The proxy's own 502 (problem+json): "S" the server aborted, "H" before sending
            # its headers. No request is left to a silent close.
            assert outcomes[index] == 502, outcomes[index]
            assert " replicas/replica1 " in line and " 502 " in line, line
            assert state[:2] in ("SH", "SC"), line
        else:
            assert " replicas/replica2 " in line and state == "----", line


@PROXY_ON_POSTGRES
def test_requests_the_client_abandons_or_sends_too_slowly_are_logged(
    servers: list[Server], entry: Proxy
) -> None:
    proxy = entry

    def connect(request: bytes) -> socket.socket:
        sock = socket.create_connection(("127.0.0.1", proxy.port), timeout=60)
        sock.sendall(request)
        return sock

    head = b"POST /games HTTP/1.1\r\nHost: proxy\r\n"
    body = b"Content-Length: 20\r\n\r\n{}"  # 2 bytes of the 20 announced
    abandoned = connect(head + body)
    slow = connect(head + body)
    ports = {"abandoned": abandoned.getsockname()[1], "slow": slow.getsockname()[1]}
    # The proxy has read what both sent (its side of each connection holds no unread byte)
    # before the one is abandoned.
    _wait_for(
        lambda: {peer for peer, unread in _unread(proxy.port) if unread == 0} >= {*ports.values()},
        "the proxy to read both requests",
    )
    abandoned.close()
    # `timeout http-request` (10 s) closes the slow one without a word, as a replica closes a
    # slow request's connection (deploy/haproxy.cfg: "errorfile 408 /dev/null"); its log line
    # still says 408.
    with slow:
        answer = slow.recv(100)
    assert answer == b"", answer

    # Neither reached a replica (the proxy waits for a whole request), so they are found by
    # the client's address and port, which start each line.
    def line_from(port: int) -> str | None:
        lines = [line for line in _log_lines(proxy) if line.startswith(f"127.0.0.1:{port} ")]
        return lines[0] if lines else None

    _wait_for(lambda: all(line_from(port) for port in ports.values()), "a line for each")
    slow_line, abandoned_line = line_from(ports["slow"]), line_from(ports["abandoned"])
    assert slow_line is not None and abandoned_line is not None
    # "c" the client timed out, "C" the client closed; "R" while the proxy read its request.
    assert _termination_state(slow_line) == "cR--" and " 408 " in slow_line, slow_line
    assert _termination_state(abandoned_line) == "CR--", abandoned_line
    assert '"POST /games HTTP/1.1"' in slow_line and '"POST /games HTTP/1.1"' in abandoned_line
