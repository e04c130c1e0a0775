"""bench/events_load.py runs end to end, briefly: two replicas on PostgreSQL behind HAProxy,
a few dozen event streams, games played, one replica killed mid-run. It is run as a command
(the tests do not import ``bench/``), and its own check must pass: every watcher read every
placement of every game it followed, once, in order, and the end. Nothing here asserts a
speed or a memory figure."""

from __future__ import annotations

import json

import pytest

from testkit import databases
from testkit.proxy import haproxy_binary
from tests.bench.commands import run_script, succeeded

pytestmark = pytest.mark.slow


def require_postgres_and_haproxy() -> None:
    missing_proxy = None if haproxy_binary() else "haproxy is not installed"
    for reason in (databases.postgres_unavailable_reason(), missing_proxy):
        if reason is not None:
            if databases.REQUIRE_POSTGRES:
                pytest.fail(reason)
            pytest.skip(reason)


def test_events_load_delivers_every_event_in_order_across_a_replica_kill() -> None:
    require_postgres_and_haproxy()
    out = succeeded(
        run_script(
            "events_load.py",
            "--streams", "24", "--clients", "3", "--games", "4", "--kill-games", "4",
            # A placement cut off by the kill is taken over by its retry after 5 s, not 60.
            "--stale-claim-seconds", "5",
        )
    )  # fmt: skip
    summary = json.loads(out.split("summary ", 1)[1].splitlines()[0])
    assert summary["problems"] == 0
    # Every game of the watched and kill phases (8) was followed by 8 watchers (24 / 3), each
    # reading at least one placement of it.
    assert summary["events"] >= 8 * 8
    assert "kill -9 replica 1" in out and "replica 1 started again" in out
    assert "every event, once, in order" in out


def test_events_load_paces_its_clients() -> None:
    """``--pace``: each client places one card per interval; every event still arrives."""
    require_postgres_and_haproxy()
    out = succeeded(
        run_script(
            "events_load.py",
            "--streams", "6", "--clients", "2", "--games", "2", "--kill-games", "0",
            "--no-kill", "--pace", "0.05",
        )
    )  # fmt: skip
    summary = json.loads(out.split("summary ", 1)[1].splitlines()[0])
    assert summary["problems"] == 0 and summary["pace_s"] == 0.05
    assert "placing a card every 0.05 s" in out
    assert "p99 <= 250.0 ms" in out
