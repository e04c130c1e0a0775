"""bench/fairplay_drain.py runs end to end, small, on both databases: a win reviewed, a
placement load measured in both windows, a burst of wins all reviewed in the order they were
queued. It runs as a command (the tests do not import ``bench/``); its figures come back
through ``--json``. Nothing here asserts a speed."""

from __future__ import annotations

from pathlib import Path

import pytest

from testkit import databases
from tests.bench.commands import read_json, run_script, succeeded

pytestmark = pytest.mark.slow  # a real server computing reviews: the slow tier

BURST = 4


def test_fairplay_drain_reviews_a_win_and_a_burst_in_order_beside_the_placement_load(
    backend: str, tmp_path: Path
) -> None:
    figures = tmp_path / "fairplay_drain.json"
    succeeded(
        run_script(
            "fairplay_drain.py", "--backend", backend, "--postgres-url", databases.ADMIN_URL,
            "--burst", str(BURST), "--clients", "2", "--seconds", "0.5", "--warmup", "0",
            "--drain-timeout", "400", "--json", str(figures),
        )
    )  # fmt: skip
    report = read_json(figures)[backend]
    assert report["single"]["status"] in ("clean", "flagged")
    assert report["single"]["seconds"] > 0
    for window in ("quiet", "draining"):
        figures_of = report[window]
        assert figures_of["placements"] > 0, window
        assert figures_of["p99_ms"] >= figures_of["p50_ms"] > 0, window
        assert figures_of["server_cpu_ms_per_placement"] > 0, window
        assert set(figures_of["errors"]) <= {"409"}, window
    assert report["rate_ratio"] > 0 and report["p99_ratio"] > 0
    assert report["burst"] == report["burst_won"] == BURST
    assert report["reviews_done"] == BURST
    assert report["drain_seconds"] > 0
    assert report["in_order"] is True
    assert sum(report["verdicts"].values()) == BURST
    assert report["serious_errors"] == 0
