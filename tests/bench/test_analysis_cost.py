"""bench/analysis_cost.py runs end to end, briefly, as a command (the tests do not import
``bench/``)."""

from __future__ import annotations

from tests.bench.commands import run_script, succeeded


def test_the_cost_benchmark_reviews_and_solves_every_deal() -> None:
    out = succeeded(
        run_script("analysis_cost.py", "--deals", "2", "--effort", "100", "--play-effort", "100")
    )
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines[:2]] == ["deal 0", "deal 1"]
    assert lines[-1].startswith("review median") and "blunder" in lines[-1]
