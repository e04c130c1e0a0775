"""Play many deals with a computer player and report how strong it is.

    python -m engine.player.simulate --games 1000 --policy best --seed 0

Deal ``i`` is :meth:`Game.from_seed` of ``seed + i``; the policy decides from
``game.public_view()`` alone. The report gives the win rate with a 95% Wilson confidence
interval, the mean winning score and a histogram of the winning scores, the time per decision
(median and 90th percentile, wall clock and this process's CPU time, which a busy machine
inflates less) and the simulated placements per decision. A progress line is
written to stderr when it is a terminal (or with ``--progress``).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TextIO

from engine.game import Game
from engine.player.advice import DEFAULT_BUDGETS, Budget, Policy, choose

__all__ = ["DealResult", "build_parser", "main", "play_deal", "wilson_interval"]

_BAR_WIDTH = 40


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal played out."""

    seed: int
    won: bool
    score: int | None
    end_reason: str | None
    decision_ms: tuple[float, ...]  # wall-clock time of each decision
    decision_cpu_ms: tuple[float, ...]  # CPU time of this process for each decision
    simulated: tuple[int, ...]  # simulated placements behind each decision


def play_deal(seed: int, policy: Policy, budget: Budget, player_seed: int = 0) -> DealResult:
    """Play deal ``seed`` to the end, the policy seeing only the public view."""
    game = Game.from_seed(seed)
    times: list[float] = []
    cpu_times: list[float] = []
    efforts: list[int] = []
    while not game.is_over:
        view = game.public_view()
        decision_seed = (player_seed * 1_000_003 + seed) * 64 + view.placements_count
        start, cpu_start = time.perf_counter(), time.process_time()
        position, effort = choose(view, policy=policy, seed=decision_seed, budget=budget)
        times.append((time.perf_counter() - start) * 1000)
        cpu_times.append((time.process_time() - cpu_start) * 1000)
        efforts.append(effort)
        game.place(position)
    return DealResult(
        seed=seed,
        won=game.score is not None,
        score=game.score,
        end_reason=game.end_reason.value if game.end_reason is not None else None,
        decision_ms=tuple(times),
        decision_cpu_ms=tuple(cpu_times),
        simulated=tuple(efforts),
    )


def wilson_interval(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% for the default ``z``).

    >>> low, high = wilson_interval(99, 100)
    >>> round(low, 4), round(high, 4)
    (0.9455, 0.9982)
    """
    if trials <= 0:
        return 0.0, 1.0
    share = successes / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials))
    half /= 1 + z2 / trials
    return max(0.0, centre - half), min(1.0, centre + half)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """The command's argument parser (``prog`` names the command in its help)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Play deals with a computer player that sees only the public state, "
        "and report its win rate, scores and speed.",
    )
    parser.add_argument("--games", type=_positive, default=100, help="deals to play (100)")
    parser.add_argument("--seed", type=int, default=0, help="first deal's seed (0)")
    parser.add_argument(
        "--policy", choices=[p.value for p in Policy], default=Policy.BEST.value, help="(best)"
    )
    parser.add_argument(
        "--player-seed", type=int, default=0, help="seed of the player's own draws (0)"
    )
    parser.add_argument(
        "--budget-placements",
        type=_non_negative,
        default=None,
        metavar="N",
        help="cap on simulated placements per decision (policy default)",
    )
    parser.add_argument(
        "--budget-ms",
        type=float,
        default=None,
        metavar="MS",
        help="cap on milliseconds per decision (none; makes results machine-dependent)",
    )
    parser.add_argument(
        "--jobs", type=_positive, default=1, help="worker processes (1: this process only)"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="show a progress line on stderr (default: when stderr is a terminal)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; print the report on stdout and return the exit status (0)."""
    args = build_parser().parse_args(argv)
    policy = Policy(args.policy)
    default = DEFAULT_BUDGETS[policy]
    if args.budget_placements is None and args.budget_ms is None:
        budget = default
    else:
        budget = Budget(placements=args.budget_placements, milliseconds=args.budget_ms)
    seeds = range(args.seed, args.seed + args.games)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    start = time.perf_counter()
    results: list[DealResult] = []
    wins = 0
    for result in _play_all(seeds, policy, budget, args.player_seed, args.jobs):
        results.append(result)
        wins += result.won
        if progress:
            _show_progress(sys.stderr, len(results), len(seeds), wins, start)
    if progress:
        sys.stderr.write("\n")
        sys.stderr.flush()
    results.sort(key=lambda result: result.seed)
    _report(sys.stdout, results, policy, budget, args, time.perf_counter() - start)
    return 0


def _play_all(
    seeds: range, policy: Policy, budget: Budget, player_seed: int, jobs: int
) -> Iterator[DealResult]:
    if jobs == 1:
        for seed in seeds:
            yield play_deal(seed, policy, budget, player_seed)
        return
    tasks = [(seed, policy, budget, player_seed) for seed in seeds]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_play_task, tasks)


def _play_task(task: tuple[int, Policy, Budget, int]) -> DealResult:
    return play_deal(*task)


def _show_progress(out: TextIO, done: int, total: int, wins: int, start: float) -> None:
    elapsed = time.perf_counter() - start
    left = elapsed / done * (total - done)
    filled = _BAR_WIDTH * done // total
    out.write(
        f"\r[{'#' * filled}{'.' * (_BAR_WIDTH - filled)}] {done}/{total} deals, "
        f"{wins} won, {elapsed:.0f} s, about {left:.0f} s left "
    )
    out.flush()


def _report(
    out: TextIO,
    results: Sequence[DealResult],
    policy: Policy,
    budget: Budget,
    args: argparse.Namespace,
    elapsed: float,
) -> None:
    games = len(results)
    wins = [result for result in results if result.won]
    low, high = wilson_interval(len(wins), games)
    first, last = args.seed, args.seed + games - 1
    spent = _describe(budget) if policy is Policy.BEST else "none (one-step policy)"
    print(
        f"policy {policy.value}, budget {spent}, deals {first}..{last} "
        f"(seeds of Game.from_seed), player seed {args.player_seed}",
        file=out,
    )
    print(
        f"won {len(wins)} of {games}: {100 * len(wins) / games:.2f}% "
        f"(95% Wilson CI {100 * low:.2f}%..{100 * high:.2f}%)",
        file=out,
    )
    reasons = Counter(result.end_reason for result in results if not result.won)
    lost = ", ".join(f"{reason} {count}" for reason, count in sorted(reasons.items()))
    print(f"lost {games - len(wins)}" + (f": {lost}" if lost else ""), file=out)
    scores = [result.score for result in wins if result.score is not None]
    if scores:
        print(
            f"mean winning score {statistics.fmean(scores):.2f} "
            f"(median {statistics.median(scores):g}, range {min(scores)}..{max(scores)})",
            file=out,
        )
        print("winning score histogram:", file=out)
        counts = Counter(scores)
        most = max(counts.values())
        for score in range(max(scores), min(scores) - 1, -1):
            count = counts.get(score, 0)
            bar = "#" * round(_BAR_WIDTH * count / most)
            print(f"  {score:>2} | {bar:<{_BAR_WIDTH}} {count}", file=out)
    else:
        print("mean winning score - (no wins)", file=out)
    times = sorted(ms for result in results for ms in result.decision_ms)
    cpu_times = sorted(ms for result in results for ms in result.decision_cpu_ms)
    efforts = sorted(n for result in results for n in result.simulated)
    print(
        f"time per decision: median {statistics.median(times):.1f} ms, "
        f"p90 {_percentile(times, 0.9):.1f} ms ({len(times)} decisions)",
        file=out,
    )
    print(
        f"cpu time per decision: median {statistics.median(cpu_times):.1f} ms, "
        f"p90 {_percentile(cpu_times, 0.9):.1f} ms",
        file=out,
    )
    print(
        f"simulated placements per decision: median {statistics.median(efforts):g}, "
        f"p90 {_percentile(efforts, 0.9):g}, mean {statistics.fmean(efforts):.0f}",
        file=out,
    )
    print(f"elapsed {elapsed:.1f} s", file=out)


def _percentile(ordered: Sequence[float], share: float) -> float:
    """The nearest-rank percentile of sorted data."""
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _describe(budget: Budget) -> str:
    parts = []
    if budget.placements is not None:
        parts.append(f"{budget.placements} placements")
    if budget.milliseconds is not None:
        parts.append(f"{budget.milliseconds:g} ms")
    return " and ".join(parts) if parts else "uncapped"


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _non_negative(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be at least 0, not {value}")
    return value


if __name__ == "__main__":
    sys.exit(main())
