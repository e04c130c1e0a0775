"""bench/analysis_cost.py runs end to end, briefly (moved from tests/engine/test_analysis.py:
only tests/bench imports bench/)."""

from __future__ import annotations

import pytest

from bench import analysis_cost


def test_the_cost_benchmark_reviews_and_solves_every_deal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert analysis_cost.main(["--deals", "2", "--effort", "100", "--play-effort", "100"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["deal 0", "deal 1"]
    assert lines[-1].startswith("review median") and "blunder" in lines[-1]
