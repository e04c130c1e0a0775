"""bench/tournament_load.py runs end to end, small: its standings part on both databases
(entrants bulk-loaded, every page of the standings walked and its ranks checked, each kind of
request timed beside the leaderboard's), and its live part on two replicas behind HAProxy
with one killed mid-play. It is run as a command (the tests do not import ``bench/``); its
own checks must pass (the live part exits 1 on a placement lost or doubled, a stream that
missed a deal's end, standings that differ from what the clients played). Nothing here
asserts a speed."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from testkit import databases
from tests.bench.commands import read_json, run_script, succeeded
from tests.bench.test_events_load import require_postgres_and_haproxy

pytestmark = pytest.mark.slow

KINDS = {"leaderboard", "standings", "standings around", "final standings", "leaderboard around"}


def test_standings_are_timed_beside_the_leaderboard(backend: str, tmp_path: Path) -> None:
    figures = tmp_path / "standings.json"
    out = succeeded(
        run_script(
            "tournament_load.py", "standings", "--backend", backend,
            "--postgres-url", databases.ADMIN_URL, "--entrants", "250", "--deals", "2",
            "--clients", "2", "--seconds", "0.3", "--rounds", "2", "--json", str(figures),
        )
    )  # fmt: skip
    report = read_json(figures)[backend]
    assert report["errors"] == {}
    assert set(report["kinds"]) == KINDS
    for kind in KINDS:
        assert report["kinds"][kind]["count"] > 0 and report["kinds"][kind]["rps"] > 0, kind
    assert math.isfinite(report["ratio"]) and report["ratio"] > 0
    # 250 entrants: three pages of each standings, every entrant met once, ranks checked.
    for status in ("provisional", "final"):
        assert f"[{backend}] {status} standings walked: 250 entrants on 3 pages" in out
    assert "standings / leaderboard: " in out and "goal >= 0.8 x" in out


def test_live_tournament_loses_and_doubles_no_placement_across_a_replica_kill(
    tmp_path: Path,
) -> None:
    require_postgres_and_haproxy()
    figures = tmp_path / "live.json"
    out = succeeded(
        run_script(
            "tournament_load.py", "live", "--postgres-url", databases.ADMIN_URL,
            "--entrants", "6", "--deals", "2", "--watchers", "2", "--pace", "0.05,0.15",
            "--kill-after", "0.6", "--restart-after", "1", "--stale-claim-seconds", "3",
            "--json", str(figures),
        )
    )  # fmt: skip
    summary = read_json(figures)
    assert summary == json.loads(out.split("summary ", 1)[1].splitlines()[0])
    assert (summary["entrants"], summary["deals"], summary["watchers"]) == (6, 2, 2)
    assert summary["acknowledged"] >= 6 * 2 * 5  # a deal lasts at least five placements
    assert summary["lost"] == summary["doubled"] == summary["unplaced"] == 0
    # Every deal's end (6 entrants x 2 deals) reached both watchers.
    assert summary["deal_finished_events"] == 6 * 2 * 2
    assert summary["stream_problems"] == summary["standing_problems"] == 0
    assert math.isfinite(summary["deal_finished_p99_ms"])
    assert "kill -9 replica 1" in out and "replica 1 started again" in out
    assert "shares the machine's" in out
