"""bench/race_load.py runs end to end, small: two replicas on PostgreSQL behind HAProxy, two
races of two racers placing quickly, unwatched and then followed by their racers and an
onlooker each. It is run as a command (the tests do not import ``bench/``), and its own check
must pass: every stream read its race's events in order to the result, and each racer's
progress, none missed. Nothing here asserts a speed."""

from __future__ import annotations

import json
import math

import pytest

from tests.bench.commands import run_script, succeeded
from tests.bench.test_events_load import require_postgres_and_haproxy

pytestmark = pytest.mark.slow


def test_race_load_delivers_every_racers_progress_and_prints_its_figures() -> None:
    require_postgres_and_haproxy()
    out = succeeded(
        run_script(
            "race_load.py",
            "--races", "2", "--racers", "2", "--watchers", "1", "--pace", "0.2",
            "--countdown", "0.5", "--warm-up", "1",
            timeout=120,
        )
    )  # fmt: skip
    summary = json.loads(out.split("summary ", 1)[1].splitlines()[0])
    assert summary["problems"] == 0
    assert (summary["races"], summary["racers"], summary["watchers"]) == (2, 2, 1)
    # Each racer's progress (one per placement but its last: at least five before any end)
    # reached the other racer and the onlooker.
    assert summary["progress_events"] >= 2 * 2 * 5 * 2
    figures = ("unwatched_p99_ms", "watched_p99_ms", "ratio", "progress_p99_ms")
    assert all(math.isfinite(summary[figure]) for figure in figures), summary
    assert "p99 <= 250.0 ms" in out and "<= 1.3 x" in out
    assert "each racer's progress, in order, none missed" in out
    assert "/proc/loadavg" in out and "cores: replicas/pg/haproxy/this" in out
