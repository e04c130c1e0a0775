"""The processes of ``foursquare serve``: SIGTERM drains, and no worker outlives the master."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from testkit.processes import alive, children
from testkit.server import Server

# Real server processes, started, killed and waited for: the slow tier.
pytestmark = pytest.mark.slow

DEADLINE = 60.0  # seconds; the conditions below are normally met within a second or two


def wait_for(condition: Callable[[], bool], what: str, deadline: float = DEADLINE) -> None:
    end = time.monotonic() + deadline
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"still not {what} after {deadline:g} s")
        time.sleep(0.1)


def accepting(port: int) -> bool:
    """Whether the port takes connections: anything but a refusal (a connection attempt that
    times out on a busy machine, too) says it may."""
    with socket.socket() as sock:
        sock.settimeout(2)
        return sock.connect_ex(("127.0.0.1", port)) != errno.ECONNREFUSED


@contextlib.contextmanager
def started(server: Server) -> Iterator[Server]:
    """``server`` started; its whole process group killed afterwards, whatever happened."""
    server.start()
    pgid = server.pid()
    try:
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pgid, signal.SIGKILL)
        if server.process is not None:
            server.process.wait(timeout=30)


def test_killing_the_master_leaves_no_worker_serving(sqlite_url: str, tmp_path: Path) -> None:
    first = Server(sqlite_url, workers=2, log_path=tmp_path / "first.log")
    with started(first):
        wait_for(lambda: len(children(first.pid())) >= 2, "two workers")
        workers = children(first.pid())
        os.kill(first.pid(), signal.SIGKILL)  # the master only, as the OOM killer would
        assert first.process is not None and first.process.wait(timeout=30) == -signal.SIGKILL

        wait_for(lambda: not any(alive(pid) for pid in workers), "gone, the workers")
        wait_for(lambda: not accepting(first.port), "free, the port")

    second = Server(sqlite_url, port=first.port, workers=2, log_path=tmp_path / "second.log")
    with started(second):  # "Address already in use" would fail the start
        created = httpx.post(f"{second.base_url}/games", json={"player": "again"})
        assert created.status_code == 201, created.text


def test_sigterm_lets_an_in_flight_request_finish_then_exits(
    sqlite_url: str, tmp_path: Path
) -> None:
    # The client below holds its body back until the port refuses, which takes as long as
    # the slowest of the master and its workers needs to act on the signal: on a loaded
    # machine that can exceed the body deadline (10 s by default), and the worker then closes
    # the connection unanswered (api/ops/http_limits.py), as it should. That deadline is
    # test_body_limits.py's subject; here it is put beyond every wait of this test.
    server = Server(
        sqlite_url,
        workers=2,
        log_path=tmp_path / "serve.log",
        extra_env={"FOURSQUARE_BODY_TIMEOUT_SECONDS": str(3 * DEADLINE)},
    )
    with started(server), socket.create_connection(("127.0.0.1", server.port), 30) as client:
        body = json.dumps({"player": "slow-upload"}).encode()
        # A slow client: the headers now, the body later. With Expect: 100-continue the
        # server says "100 Continue" when the app starts reading the body, so the request
        # is known to be in flight before the signal.
        client.sendall(
            b"POST /games HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
            b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body)
        )
        client.settimeout(30)
        assert client.recv(1024).startswith(b"HTTP/1.1 100 Continue")

        os.kill(server.pid(), signal.SIGTERM)  # the master, which tells its workers
        wait_for(lambda: not accepting(server.port), "refusing new connections")
        assert server.process is not None and server.process.poll() is None  # still draining

        client.sendall(body)
        response = b""
        while chunk := client.recv(65536):
            response += chunk
        head, _, payload = response.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 201 "), head
        game = json.loads(payload)  # complete: the whole JSON document arrived
        assert game["player"] == "slow-upload" and game["status"] == "in_progress"

        assert server.process.wait(timeout=DEADLINE) == 0


def test_one_worker_is_supervised_the_same_way(sqlite_url: str, tmp_path: Path) -> None:
    server = Server(sqlite_url, workers=1, log_path=tmp_path / "serve.log")
    with started(server):
        wait_for(lambda: len(children(server.pid())) == 1, "one worker")
        (worker,) = children(server.pid())
        os.kill(server.pid(), signal.SIGKILL)
        wait_for(lambda: not alive(worker), "gone, the worker")
        wait_for(lambda: not accepting(server.port), "free, the port")
