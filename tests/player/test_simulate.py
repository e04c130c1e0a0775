"""The simulation command runs end to end and prints its report."""

from __future__ import annotations

import pytest

from engine.player import Policy
from engine.player.advice import Budget
from engine.player.simulate import (
    DealOptimum,
    DealResult,
    main,
    optimum_summary,
    play_deal,
    wilson_interval,
)
from engine.solver import DEFAULT_NODES

TIMINGS = ("time per decision", "cpu time per decision", "elapsed", "  time per deal")


@pytest.mark.parametrize("policy", [p.value for p in Policy])
def test_a_short_simulation_reports_wins_scores_and_speed(
    policy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--games", "2", "--seed", "3", "--policy", policy, "--budget-placements", "400"]
    argv += ["--optimum-nodes", "20000"]
    assert main([*argv, "--no-progress"]) == 0
    out, err = capsys.readouterr()
    lines = out.splitlines()
    budget = "400 placements" if policy == "best" else "none (one-step policy)"
    assert lines[0] == (
        f"policy {policy}, budget {budget}, deals 3..4 (seeds of Game.from_seed), player seed 0"
    )
    assert lines[1].startswith("won ") and " of 2: " in lines[1] and "Wilson CI" in lines[1]
    assert lines[2].startswith("lost ")
    assert lines[3].startswith("mean winning score ")
    assert lines[-4].startswith("time per decision: median ")
    assert lines[-3].startswith("cpu time per decision: median ")
    assert lines[-2].startswith("simulated placements per decision: median ")
    assert lines[-1].startswith("elapsed ")
    assert err == ""


def test_progress_goes_to_stderr_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "2", "--policy", "random", "--progress"]) == 0
    out, err = capsys.readouterr()
    assert "\r[" in err and "2/2 deals" in err
    assert "\r" not in out


def test_the_report_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--games", "3", "--policy", "greedy", "--no-progress"]
    reports = []
    for _ in range(2):
        main(argv)
        lines = capsys.readouterr().out.splitlines()
        reports.append([line for line in lines if not line.startswith(TIMINGS)])
    assert reports[0] == reports[1]
    assert len(reports[0]) >= 5


def test_the_same_deal_is_played_the_same_way() -> None:
    budget = Budget(placements=400)
    one = play_deal(7, Policy.BEST, budget)
    other = play_deal(7, Policy.BEST, budget)
    assert (one.won, one.score, one.end_reason, one.simulated) == (
        other.won,
        other.score,
        other.end_reason,
        other.simulated,
    )
    assert len(one.decision_ms) == len(one.simulated) >= 16 or not one.won


@pytest.mark.parametrize("argv", [["--games", "0"], ["--policy", "clever"], ["--jobs", "0"]])
def test_bad_arguments_are_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "error" in capsys.readouterr().err


def test_wilson_interval_matches_known_values() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    low, high = wilson_interval(50, 100)
    assert round(low, 4) == 0.4038 and round(high, 4) == 0.5962
    low, high = wilson_interval(995, 1000)
    assert round(low, 4) == 0.9883 and round(high, 4) == 0.9979


def test_worker_processes_play_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    reports = []
    for jobs in ("1", "2"):
        main(["--games", "4", "--policy", "greedy", "--jobs", jobs, "--no-progress"])
        lines = capsys.readouterr().out.splitlines()
        reports.append([line for line in lines if not line.startswith(TIMINGS)])
    assert reports[0] == reports[1]


def test_the_report_gives_the_hindsight_optimum_beside_the_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--games", "3", "--seed", "1", "--policy", "greedy", "--per-deal", "--no-progress"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    # Deals 1..3 are won with 24 cards left (the solver proves it); greedy loses them all.
    assert lines[:3] == [
        f"deal {seed}: player lost (stock_exhausted), optimum 24 (proven), "
        + lines[seed - 1].split("(proven), ")[1]
        for seed in (1, 2, 3)
    ]
    section = lines.index(
        f"hindsight optimum (deck order known, engine.solver, {DEFAULT_NODES} placements a deal):"
    )
    assert lines[section + 1 : section + 5] == [
        "  winnable with perfect information 3 of 3: 100.00% (proven unwinnable 0, no win found 0)",
        "  optimum proven for 3 of 3: 100.00%",
        "  mean optimum 24.00 on the winnable deals (median 24, range 24..24)",
        "  player's score as a share of the optimum's (totals, a loss 0): 0.0%",
    ]
    assert lines[section + 5].startswith("  time per deal: median ")


def test_the_optimum_can_be_left_out_or_computed_alone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["--games", "2", "--policy", "greedy", "--no-optimum", "--no-progress"])
    assert "hindsight optimum" not in capsys.readouterr().out
    main(["--games", "2", "--seed", "5", "--optimum-only", "--jobs", "2", "--no-progress"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "deals 5..6 (seeds of Game.from_seed)"
    assert lines[1].startswith("hindsight optimum")
    assert not any(line.startswith(("won ", "time per decision")) for line in lines)
    assert lines[-1].startswith("elapsed ")


def test_the_summary_measures_the_player_against_the_optimum() -> None:
    optima = [
        DealOptimum(0, 24, True, 24, 10, 1.0, 1.0),
        DealOptimum(1, 20, False, 22, 10, 1.0, 1.0),
        DealOptimum(2, None, True, None, 10, 1.0, 1.0),
    ]
    played = [
        DealResult(0, True, 18, None, (), (), ()),
        DealResult(1, False, None, "too_many_face_down", (), (), ()),
        DealResult(2, False, None, "stock_exhausted", (), (), ()),
    ]
    summary = optimum_summary(optima, played)
    assert (summary.deals, summary.winnable, summary.unwinnable, summary.proven) == (3, 2, 1, 2)
    assert summary.mean_optimum == 22.0 and summary.mean_upper_bound == 23.0
    assert summary.player_mean_on_won == 18.0 and summary.optimum_mean_on_won == 24.0
    assert summary.player_share == 18 / 44 and summary.player_share_low == 18 / 46
