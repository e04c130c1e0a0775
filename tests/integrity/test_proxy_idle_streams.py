"""Idle event streams through HAProxy: the heartbeat keeps them open past the proxy's
inactivity timeouts.

deploy/haproxy.cfg lets a connection be silent for 30 s towards the client and 60 s towards a
replica on the streams backend; the replicas' default heartbeat (15 s) is inside both. Waiting
out those minutes proves nothing that the same ratios at a tenth of the scale do not, so the
stream below runs through a copy of the shipped configuration whose two inactivity timeouts
are scaled down (every other line as shipped), with replicas beating at the same proportion;
the shipped values themselves are checked against the default heartbeat without waiting.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from api.settings import Settings
from testkit.proxy import CONFIG, Proxy
from testkit.server import Server
from tests.integrity.conftest import running_proxy

pytestmark = pytest.mark.slow

CLIENT_TIMEOUT = 4  # seconds: the frontend's "timeout client" in the scaled copy (30 s shipped)
SERVER_TIMEOUT = 8  # seconds: every "timeout server" in the scaled copy (30 s and 60 s shipped)
HEARTBEAT = 1  # seconds: the replicas' FOURSQUARE_EVENTS_HEARTBEAT_SECONDS here (15 s default)
IDLE_FOR = 1.5 * SERVER_TIMEOUT  # how long the stream is held with nothing but heartbeats

_TIMEOUT = re.compile(r"^(\s*timeout (client|server)) (\d+)s\s*$", re.MULTILINE)


def _timeouts(config: str) -> dict[str, list[int]]:
    """The configuration's ``timeout client`` and ``timeout server`` values, in seconds."""
    found: dict[str, list[int]] = {"client": [], "server": []}
    for match in _TIMEOUT.finditer(config):
        found[match.group(2)].append(int(match.group(3)))
    return found


def test_the_shipped_timeouts_leave_room_for_the_default_heartbeat() -> None:
    shipped = _timeouts(CONFIG.read_text())
    assert shipped["client"] and shipped["server"], "deploy/haproxy.cfg sets both timeouts"
    heartbeat = Settings.model_fields["events_heartbeat_seconds"].default
    # At least two heartbeats inside the shortest silence the proxy allows: one may be late.
    assert 2 * heartbeat <= min(shipped["client"] + shipped["server"])


@pytest.fixture(autouse=True)
def _heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicas (started after this) send a heartbeat every HEARTBEAT seconds."""
    monkeypatch.setenv("FOURSQUARE_EVENTS_HEARTBEAT_SECONDS", str(HEARTBEAT))


@pytest.fixture
def scaled_proxy(servers: list[Server], tmp_path: Path) -> Iterator[Proxy]:
    """HAProxy with deploy/haproxy.cfg as shipped but for its inactivity timeouts."""

    def scaled(match: re.Match[str]) -> str:
        seconds = CLIENT_TIMEOUT if match.group(2) == "client" else SERVER_TIMEOUT
        return f"{match.group(1)} {seconds}s"

    # The copy sits in a folder of its own with the error pages it names by relative path.
    folder = tmp_path / "deploy"
    shutil.copytree(CONFIG.parent / "errors", folder / "errors")
    config = folder / "haproxy.cfg"
    config.write_text(_TIMEOUT.sub(scaled, CONFIG.read_text()))
    assert _timeouts(config.read_text()) == {
        "client": [CLIENT_TIMEOUT] * len(_timeouts(CONFIG.read_text())["client"]),
        "server": [SERVER_TIMEOUT] * len(_timeouts(CONFIG.read_text())["server"]),
    }
    with running_proxy(servers, tmp_path, config) as proxy:
        yield proxy


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_an_idle_stream_stays_open_through_the_proxy_past_its_timeouts(
    scaled_proxy: Proxy,
) -> None:
    async def scenario() -> int:
        pings = 0
        started = time.monotonic()
        async with (
            httpx.AsyncClient(timeout=httpx.Timeout(10, read=3 * SERVER_TIMEOUT)) as client,
            client.stream("GET", f"{scaled_proxy.base_url}/events") as response,
        ):
            assert response.status_code == 200
            assert response.headers["cache-control"] == "no-cache"
            async for line in response.aiter_lines():
                if line.startswith(": ping"):
                    pings += 1
                if time.monotonic() - started > IDLE_FOR:
                    break
            else:
                pytest.fail("the proxy closed an idle stream")
        return pings

    pings = asyncio.run(scenario())
    # A heartbeat every HEARTBEAT seconds, some of them late on a busy machine.
    assert pings >= IDLE_FOR // (2 * HEARTBEAT)
    # The proxy logs the stream, through its own backend, once the client has closed it.
    deadline = time.monotonic() + 30
    while " api streams/" not in scaled_proxy.log.read_text(errors="replace"):
        assert time.monotonic() < deadline, "the stream never reached the proxy's log"
        time.sleep(0.1)
