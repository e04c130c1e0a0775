"""Play many deals with a computer player and report how strong it is.

    python -m engine.player.simulate --games 1000 --policy best --seed 0
    python -m engine.player.simulate --games 200 --level good --no-optimum

Deal ``i`` is :meth:`Game.from_seed` of ``seed + i``; the policy decides from
``game.public_view()`` alone. The report gives the win rate with a 95% Wilson confidence
interval, the mean winning score and a histogram of the winning scores, the time per decision
(median and 90th percentile, wall clock and this process's CPU time, which a busy machine
inflates less) and the simulated placements per decision. A progress line is
written to stderr when it is a terminal (or with ``--progress``).

Beside the player's results it reports the hindsight optimum of each deal
(:func:`engine.solver.solve`: the best score with the whole deck order known, within
``--optimum-nodes`` simulated placements per deal), unless ``--no-optimum``: how many deals are
winnable with perfect information, for how many the optimum is proven, the mean optimum, and
the player's score as a share of it (definitions in :func:`optimum_summary`).
``--optimum-only`` skips the player (the winnability table of the README); ``--per-deal``
prints one line per deal.
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
from engine.player.advice import DEFAULT_BUDGETS, LEVELS, Budget, Level, Policy, choose
from engine.solver import DEFAULT_NODES, solve

__all__ = [
    "DealOptimum",
    "DealResult",
    "OptimumSummary",
    "build_parser",
    "main",
    "optimum_summary",
    "play_deal",
    "solve_deal",
    "wilson_interval",
]

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


@dataclass(frozen=True, slots=True)
class DealOptimum:
    """The hindsight optimum of one deal (:class:`engine.solver.Optimum` without its line)."""

    seed: int
    score: int | None  # best winning score found; None: no win found
    proven: bool
    upper_bound: int | None  # None: proven unwinnable
    nodes: int
    milliseconds: float  # wall clock
    cpu_ms: float  # this process's CPU time


def solve_deal(seed: int, nodes: int | None = DEFAULT_NODES) -> DealOptimum:
    """The hindsight optimum of deal ``seed`` within ``nodes`` simulated placements."""
    start, cpu_start = time.perf_counter(), time.process_time()
    optimum = solve(Game.from_seed(seed).deck, nodes=nodes)
    return DealOptimum(
        seed=seed,
        score=optimum.score,
        proven=optimum.proven,
        upper_bound=optimum.upper_bound,
        nodes=optimum.nodes,
        milliseconds=(time.perf_counter() - start) * 1000,
        cpu_ms=(time.process_time() - cpu_start) * 1000,
    )


@dataclass(frozen=True, slots=True)
class OptimumSummary:
    """The optima of a set of deals, and the player's results measured against them.

    ``mean_optimum`` is the mean of the best scores found over the deals where a win was found
    (exact when every one is proven; otherwise a lower bound, and ``mean_upper_bound``, the
    mean of the upper bounds over the same deals, is an upper bound). ``player_share`` is the
    player's total score (a loss counts 0) over the optima's total (a deal without a win found
    counts 0) on the same deals, as a range when some optima are not proven:
    ``player_share_low`` divides by the upper bounds' total instead.
    """

    deals: int
    winnable: int  # deals with a win found (a line that replays to it)
    unwinnable: int  # deals proven unwinnable
    proven: int  # deals whose optimum is proven (winnable or not)
    mean_optimum: float | None
    mean_upper_bound: float | None
    player_mean_on_won: float | None  # the player's mean score on the deals it won
    optimum_mean_on_won: float | None  # the optimum's mean on those same deals
    player_share: float | None
    player_share_low: float | None


def optimum_summary(
    optima: Sequence[DealOptimum], played: Sequence[DealResult] = ()
) -> OptimumSummary:
    """Summarise ``optima`` (and the player's ``played`` results on the same deals, if any).

    >>> optima = [DealOptimum(0, 24, True, 24, 1, 0.0, 0.0), DealOptimum(1, 22, False, 23, 9, 0, 0)]
    >>> summary = optimum_summary(optima)
    >>> summary.winnable, summary.proven, summary.mean_optimum, summary.mean_upper_bound
    (2, 1, 23.0, 23.5)
    """
    found = [o for o in optima if o.score is not None]
    scores = [o.score for o in found if o.score is not None]
    bounds = [o.upper_bound if o.upper_bound is not None else 0 for o in found]
    by_seed = {o.seed: o for o in optima}
    won = [r for r in played if r.won and r.score is not None and r.seed in by_seed]
    won_optima = [by_seed[r.seed].score or 0 for r in won]
    played_seeds = {r.seed for r in played}
    player_total = sum(r.score or 0 for r in played if r.seed in by_seed)
    optimum_total = sum(o.score or 0 for o in optima if o.seed in played_seeds)
    bound_total = sum(o.upper_bound or 0 for o in optima if o.seed in played_seeds)
    return OptimumSummary(
        deals=len(optima),
        winnable=len(found),
        unwinnable=sum(1 for o in optima if o.score is None and o.proven),
        proven=sum(1 for o in optima if o.proven),
        mean_optimum=statistics.fmean(scores) if scores else None,
        mean_upper_bound=statistics.fmean(bounds) if bounds else None,
        player_mean_on_won=statistics.fmean(r.score or 0 for r in won) if won else None,
        optimum_mean_on_won=statistics.fmean(won_optima) if won_optima else None,
        player_share=player_total / optimum_total if played and optimum_total else None,
        player_share_low=player_total / bound_total if played and bound_total else None,
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
        "--level",
        choices=[level.value for level in Level],
        default=None,
        help="a race computer's level: its policy and effort (overrides --policy)",
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
    parser.add_argument(
        "--optimum",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also solve each deal with its order known and compare (default: on; "
        "--no-optimum saves up to a few seconds a deal)",
    )
    parser.add_argument(
        "--optimum-nodes",
        type=_positive,
        default=DEFAULT_NODES,
        metavar="N",
        help=f"simulated placements per deal for the optimum ({DEFAULT_NODES})",
    )
    parser.add_argument(
        "--optimum-only", action="store_true", help="solve the deals only, without the player"
    )
    parser.add_argument("--per-deal", action="store_true", help="print one line per deal")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; print the report on stdout and return the exit status (0)."""
    args = build_parser().parse_args(argv)
    policy = Policy(args.policy)
    default = DEFAULT_BUDGETS[policy]
    if args.level is not None:
        policy, default = LEVELS[Level(args.level)]
    if args.budget_placements is None and args.budget_ms is None:
        budget = default
    else:
        budget = Budget(placements=args.budget_placements, milliseconds=args.budget_ms)
    seeds = range(args.seed, args.seed + args.games)
    progress = args.progress if args.progress is not None else sys.stderr.isatty()
    task = _Task(
        policy=policy,
        budget=budget,
        player_seed=args.player_seed,
        play=not args.optimum_only,
        optimum=args.optimum or args.optimum_only,
        optimum_nodes=args.optimum_nodes,
    )
    start = time.perf_counter()
    results: list[DealResult] = []
    optima: list[DealOptimum] = []
    wins = 0
    for result, optimum in _run_all(seeds, task, args.jobs):
        if result is not None:
            results.append(result)
            wins += result.won
        if optimum is not None:
            optima.append(optimum)
            if result is None:
                wins += optimum.score is not None
        if progress:
            _show_progress(sys.stderr, max(len(results), len(optima)), len(seeds), wins, start)
    if progress:
        sys.stderr.write("\n")
        sys.stderr.flush()
    results.sort(key=lambda result: result.seed)
    optima.sort(key=lambda optimum: optimum.seed)
    elapsed = time.perf_counter() - start
    if args.per_deal:
        _per_deal(sys.stdout, seeds, results, optima)
    if task.play:
        _report(sys.stdout, results, policy, budget, args, elapsed, optima)
    else:
        print(f"deals {args.seed}..{args.seed + args.games - 1} (seeds of Game.from_seed)")
        _report_optima(sys.stdout, optima, results, args.optimum_nodes)
        print(f"elapsed {elapsed:.1f} s", file=sys.stdout)
    return 0


@dataclass(frozen=True, slots=True)
class _Task:
    """What to do with each deal (picklable, for the worker processes)."""

    policy: Policy
    budget: Budget
    player_seed: int
    play: bool
    optimum: bool
    optimum_nodes: int


def _run_all(
    seeds: range, task: _Task, jobs: int
) -> Iterator[tuple[DealResult | None, DealOptimum | None]]:
    if jobs == 1:
        for seed in seeds:
            yield _run_task((seed, task))
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap_unordered(_run_task, [(seed, task) for seed in seeds])


def _run_task(job: tuple[int, _Task]) -> tuple[DealResult | None, DealOptimum | None]:
    seed, task = job
    result = play_deal(seed, task.policy, task.budget, task.player_seed) if task.play else None
    optimum = solve_deal(seed, task.optimum_nodes) if task.optimum else None
    return result, optimum


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
    optima: Sequence[DealOptimum] = (),
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
    if optima:
        _report_optima(out, optima, results, args.optimum_nodes)
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


def _report_optima(
    out: TextIO,
    optima: Sequence[DealOptimum],
    results: Sequence[DealResult],
    nodes: int,
) -> None:
    """The hindsight optimum section (definitions: :class:`OptimumSummary`)."""
    summary = optimum_summary(optima, results)
    deals = summary.deals
    undecided = deals - summary.winnable - summary.unwinnable
    print(
        f"hindsight optimum (deck order known, engine.solver, {nodes} placements a deal):",
        file=out,
    )
    print(
        f"  winnable with perfect information {summary.winnable} of {deals}: "
        f"{100 * summary.winnable / deals:.2f}% "
        f"(proven unwinnable {summary.unwinnable}, no win found {undecided})",
        file=out,
    )
    print(
        f"  optimum proven for {summary.proven} of {deals}: {100 * summary.proven / deals:.2f}%",
        file=out,
    )
    if summary.mean_optimum is not None:
        unproven = summary.mean_upper_bound != summary.mean_optimum
        bound = f" (at most {summary.mean_upper_bound:.2f})" if unproven else ""
        scores = [o.score for o in optima if o.score is not None]
        print(
            f"  mean optimum {summary.mean_optimum:.2f}{bound} on the winnable deals "
            f"(median {statistics.median(scores):g}, range {min(scores)}..{max(scores)})",
            file=out,
        )
    if summary.player_mean_on_won is not None and summary.optimum_mean_on_won is not None:
        print(
            f"  player's mean winning score {summary.player_mean_on_won:.2f} against the "
            f"optimum's {summary.optimum_mean_on_won:.2f} on the deals it won",
            file=out,
        )
    if summary.player_share is not None and summary.player_share_low is not None:
        share = f"{100 * summary.player_share:.1f}%"
        if summary.player_share_low != summary.player_share:
            share = f"{100 * summary.player_share_low:.1f}%..{share}"
        print(
            f"  player's score as a share of the optimum's (totals, a loss 0): {share}",
            file=out,
        )
    times = sorted(o.milliseconds for o in optima)
    cpu_times = sorted(o.cpu_ms for o in optima)
    print(
        f"  time per deal: median {statistics.median(times):.0f} ms, "
        f"p90 {_percentile(times, 0.9):.0f} ms, max {times[-1]:.0f} ms "
        f"(cpu median {statistics.median(cpu_times):.0f} ms, "
        f"p90 {_percentile(cpu_times, 0.9):.0f} ms)",
        file=out,
    )


def _per_deal(
    out: TextIO, seeds: range, results: Sequence[DealResult], optima: Sequence[DealOptimum]
) -> None:
    played = {result.seed: result for result in results}
    solved = {optimum.seed: optimum for optimum in optima}
    for seed in seeds:
        parts = [f"deal {seed}:"]
        result = played.get(seed)
        if result is not None:
            parts.append(
                f"player won {result.score}" if result.won else f"player lost ({result.end_reason})"
            )
        optimum = solved.get(seed)
        if optimum is not None:
            if optimum.score is None:
                what = (
                    "unwinnable" if optimum.proven else f"no win found (<= {optimum.upper_bound})"
                )
            elif optimum.proven:
                what = f"{optimum.score} (proven)"
            else:
                what = f"{optimum.score}..{optimum.upper_bound}"
            parts.append(
                f"optimum {what}, {optimum.nodes} placements, {optimum.milliseconds:.0f} ms"
            )
        print(" ".join(parts[:1]) + " " + ", ".join(parts[1:]), file=out)


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
