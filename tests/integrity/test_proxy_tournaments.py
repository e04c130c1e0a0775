"""A tournament's event stream through the shipped HAProxy configuration in front of two real
replicas on PostgreSQL: a join made through the proxy reaches the stream, and the stream was
served by the proxy's backend for streams (no buffering of small writes, long timeouts), as
every stream is (the ACL against the OpenAPI document: test_proxy_routes.py)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from testkit.proxy import Proxy
from tests.support.fairplay import SUITE_OPERATOR

pytestmark = pytest.mark.slow

DEADLINE = 60.0


@pytest.fixture(autouse=True)
def _quick_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """The replicas (started after this) see a closed stream at their next heartbeat, and
    the proxy logs its line then: within a second rather than the default 15."""
    monkeypatch.setenv("FOURSQUARE_EVENTS_HEARTBEAT_SECONDS", "1")


@pytest.mark.parametrize(("backend", "route"), [("postgresql", "proxy")], indirect=True)
def test_a_tournaments_stream_is_served_by_the_streams_backend(entry: Proxy) -> None:
    starts = datetime.now(UTC) + timedelta(hours=1)
    body = {
        "name": "through the proxy",
        "starts_at": starts.isoformat(),
        "ends_at": (starts + timedelta(hours=1)).isoformat(),
        "deals": 1,
        "guests": True,
    }
    with httpx.Client(base_url=entry.base_url, timeout=10) as client:
        created = client.post("/tournaments", json=body, headers=SUITE_OPERATOR)
        assert created.status_code == 201, created.text
        path = f"/tournaments/{created.json()['id']}/events"
        with client.stream("GET", path, timeout=httpx.Timeout(10, read=30)) as stream:
            assert stream.status_code == 200
            joined = client.post(
                f"/tournaments/{created.json()['id']}/entrants", json={"name": "proxied"}
            )
            assert joined.status_code == 201, joined.text
            fields: dict[str, str] = {}
            for line in stream.iter_lines():
                if line == "" and fields.get("event") == "joined":
                    break
                if line and not line.startswith(":"):
                    name, _, value = line.partition(":")
                    fields[name] = value.strip()
            assert json.loads(fields["data"])["entry"]["name"] == "proxied"
    deadline = time.monotonic() + DEADLINE
    while not (lines := [x for x in entry.log.read_text().splitlines() if f" {path} " in x]):
        assert time.monotonic() < deadline, "the tournament's stream is not in the proxy's log"
        time.sleep(0.1)
    assert all(" api streams/" in line for line in lines), lines
