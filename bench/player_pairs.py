"""Two settings of the ``best`` player on the same deals, compared deal by deal.

    python bench/player_pairs.py --b "placements=40000,moves=2,replies=2"
    python bench/player_pairs.py --first 2000 --deals 200 --a "" --b "pile_cost=1.4"
    python bench/player_pairs.py --deals 100 --b "sampled_from=9,samples=150"

A setting is a comma-separated list of ``name=value``: ``placements`` (the effort per
decision, default :data:`engine.player.DEFAULT_PLACEMENTS`), ``moves`` and ``replies`` (stage
3's shape, :class:`engine.player.search.Searcher`'s ``deepen_moves`` and ``deepen_replies``),
and any field of :class:`engine.player.search.Model` (a tuple field as numbers joined by ``:``,
e.g. ``extra=0:1:2.5:4:6``). An empty setting is the service's default player: with it, every
decision is the one :func:`engine.player.advise` makes.

``sampled_from=N`` tries a candidate that is not in the engine: from ``N`` piles on, the
``sampled_moves`` (default 3) placements the search ranks first are compared by the mean
hindsight optimum (:func:`engine.solve_from`, ``sample_nodes`` placements each; a loss, or
no win found within them, counts 0) over ``samples`` (default 60) orders of the unseen
cards, the same orders for each placement; the search's order breaks ties. Each order is
known to the solver, so this overrates positions that need the right card at the right time
("perfect-information Monte Carlo"); the orders are drawn from the public state alone, so
play stays deterministic.

Why paired: the spread of winning scores from deal to deal (a standard deviation of about 2.5)
hides a change of a few tenths of a point between two runs of 200 deals, but the same deal
played twice mostly differs by 0 or 1; the difference per deal (a loss counting 0) has a
standard error near 0.15 over 200 deals. Both settings' deals share one process pool, so
they see the same load. A deal's play depends only on its setting, not on the machine; only
the CPU times do.

Beside the scores it counts where the cards went that started no pile (the points lost
against a perfect 24): by the number of piles at the time, and whether a new pile that kept
the face-down count as low was there to take instead ("chosen") or not ("forced").
"""

from __future__ import annotations

import argparse
import dataclasses
import inspect
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import add_json_option, write_json
from engine import Card, Game, Position, PublicView, Status, solve_from
from engine.grid import CELL_OF, POSITION, cells_of
from engine.player import DEFAULT_PLACEMENTS
from engine.player.search import DEFAULT_MODEL, Model, Searcher

# Stage 3's shape when a setting does not say: the search's own defaults.
_SEARCH = inspect.signature(Searcher).parameters
MOVES: int = _SEARCH["deepen_moves"].default
REPLIES: int = _SEARCH["deepen_replies"].default

_FULL_GRID = 16

# Phases of a game by the piles on the table when a card goes onto a pile.
PHASES = ("1-6", "7-12", "13-15", "full")


@dataclass(frozen=True, slots=True)
class Setting:
    """One way to run the search."""

    placements: int = DEFAULT_PLACEMENTS
    moves: int = MOVES
    replies: int = REPLIES
    model: Model = DEFAULT_MODEL
    sampled_from: int = _FULL_GRID + 1  # piles: by default never
    sampled_moves: int = 3
    samples: int = 60
    sample_nodes: int = 3000

    @classmethod
    def parse(cls, text: str) -> Setting:
        """A setting from ``name=value,...`` (see the module's docstring)."""
        # Every field but the model is a whole number; the model's fields are named alone.
        plain_names = [field.name for field in dataclasses.fields(cls) if field.name != "model"]
        plain: dict[str, int] = {}
        model: dict[str, Any] = {}
        fields = {field.name: field for field in dataclasses.fields(Model)}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, sep, value = item.partition("=")
            if not sep:
                raise ValueError(f"{item!r} is not name=value")
            if name in plain_names:
                plain[name] = int(value)
            elif name in fields:
                default = getattr(DEFAULT_MODEL, name)
                if isinstance(default, tuple):
                    numbers = tuple(float(x) for x in value.split(":"))
                    if len(numbers) != len(default):
                        raise ValueError(f"{name} takes {len(default)} numbers joined by ':'")
                    model[name] = numbers
                else:
                    model[name] = float(value)
            else:
                known = ", ".join([*plain_names, *fields])
                raise ValueError(f"unknown setting {name!r}; known: {known}")
        return cls(**plain, model=dataclasses.replace(DEFAULT_MODEL, **model))

    def __str__(self) -> str:
        changed = [
            f"{field.name}={getattr(self.model, field.name)}"
            for field in dataclasses.fields(Model)
            if getattr(self.model, field.name) != getattr(DEFAULT_MODEL, field.name)
        ]
        shape = f"{self.placements} placements, stage 3 {self.moves} x {self.replies}"
        if self.sampled_from <= _FULL_GRID:
            shape += (
                f", from {self.sampled_from} piles the best {self.sampled_moves} by"
                f" {self.samples} sampled orders ({self.sample_nodes} solver placements each)"
            )
        return ", ".join([shape, *changed]) if changed else f"{shape}, default model"


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal played with one setting."""

    seed: int
    won: bool
    score: int  # 0 for a loss
    cpu_ms: tuple[float, ...]  # CPU time of each decision
    onto_piles: tuple[tuple[str, bool], ...]  # (phase, forced) of each card put on a pile
    placements: tuple[Position, ...]  # the game, placement by placement
    sampled: int = 0  # decisions that the sampled orders ranked
    overruled: int = 0  # of these, those where they overruled the search's first choice


def decide(game: Game, setting: Setting) -> Position:
    """The placement the setting's search makes, from the public view of ``game`` alone (as
    :func:`engine.player.advise` does: the stock's order never reaches the search)."""
    return _decide(game, setting)[0]


def _decide(game: Game, setting: Setting) -> tuple[Position, bool | None]:
    """:func:`decide`'s placement, and whether the sampled orders overruled the search's first
    choice (None: they ranked nothing)."""
    view = game.public_view()
    unseen = view.unseen_cards()
    searcher = Searcher(
        Game.from_view(view, unseen).board(),
        unseen,
        setting.model,
        deepen_moves=setting.moves,
        deepen_replies=setting.replies,
    )
    result = searcher.run(setting.placements)
    ranked = [result.cells[i] for i in result.ranking()]
    if len(view.piles) >= setting.sampled_from and len(ranked) > 1:
        first = ranked[0]
        ranked = _by_samples(view, unseen, ranked[: setting.sampled_moves], setting)
        return _position(ranked[0]), ranked[0] != first
    return _position(ranked[0]), None


def _position(cell: int) -> Position:
    position = POSITION[cell]
    assert position is not None
    return position


def _by_samples(
    view: PublicView, unseen: list[Card], cells: list[int], setting: Setting
) -> list[int]:
    """``cells`` (the search's order) by the mean hindsight optimum over sampled orders of the
    unseen cards, best first; the orders depend only on the public state."""
    rng = random.Random(f"{view.placements_count} {[card.index for card in unseen]}")
    totals = [0] * len(cells)
    for _ in range(setting.samples):
        order = rng.sample(unseen, len(unseen))
        base = Game.from_view(view, order)
        for i, cell in enumerate(cells):
            child = base.copy()
            child.place(_position(cell))
            optimum = solve_from(child, nodes=setting.sample_nodes)
            totals[i] += optimum.score or 0
    return [cells[i] for i in sorted(range(len(cells)), key=lambda i: -totals[i])]


def _onto_pile(game: Game, cell: int) -> tuple[str, bool] | None:
    """For a placement on ``cell``: None if it starts a pile, else its phase and whether it
    was forced (no new pile would have left the face-down count as low)."""
    board = game.board()
    occupied, up, _, legal, _ = board.bitboards()
    if not occupied >> cell & 1:
        return None
    piles = occupied.bit_count()
    phase = PHASES[0 if piles <= 6 else 1 if piles <= 12 else 2 if piles < 16 else 3]
    face_down = (occupied & ~up).bit_count()
    for other in cells_of(legal & ~occupied):
        trial = board.copy()
        if trial.place(other) is not Status.LOST and trial.face_down_count <= face_down:
            return phase, False
    return phase, True


def play(seed: int, setting: Setting) -> Deal:
    game = Game.from_seed(seed)
    cpu: list[float] = []
    onto: list[tuple[str, bool]] = []
    placed: list[Position] = []
    overruled: list[bool] = []
    while not game.is_over:
        start = time.process_time()
        position, changed = _decide(game, setting)
        cpu.append((time.process_time() - start) * 1000)
        if changed is not None:
            overruled.append(changed)
        kind = _onto_pile(game, CELL_OF[position])
        if kind is not None:
            onto.append(kind)
        game.place(position)
        placed.append(position)
    won = game.status is Status.WON
    score = game.score or 0
    return Deal(
        seed, won, score, tuple(cpu), tuple(onto), tuple(placed), len(overruled), sum(overruled)
    )


def _task(job: tuple[str, int, Setting]) -> tuple[str, Deal]:
    name, seed, setting = job
    return name, play(seed, setting)


@dataclass(frozen=True, slots=True)
class Report:
    deals: dict[str, list[Deal]]  # "a" and "b", in seed order

    def differences(self) -> list[int]:
        """B's score minus A's, deal by deal (a loss counts 0)."""
        return [b.score - a.score for a, b in zip(self.deals["a"], self.deals["b"], strict=True)]

    def difference(self) -> tuple[float, float]:
        """Mean and standard error of :meth:`differences`."""
        return mean_and_error(self.differences())


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error (NaN for fewer than two; 0 for none)."""
    if len(values) < 2:
        return (float(values[0]) if values else 0.0), math.nan
    return statistics.mean(values), statistics.stdev(values) / math.sqrt(len(values))


def run(first: int, count: int, a: Setting, b: Setting, jobs: int) -> Report:
    tasks = [
        (name, seed, s) for seed in range(first, first + count) for name, s in (("a", a), ("b", b))
    ]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            results = pool.map(_task, tasks, chunksize=1)
    else:
        results = [_task(task) for task in tasks]
    deals: dict[str, list[Deal]] = {"a": [], "b": []}
    for name, deal in results:
        deals[name].append(deal)
    return Report(deals)


def describe(name: str, setting: Setting, deals: list[Deal]) -> list[str]:
    wins = [deal for deal in deals if deal.won]
    cpu = sorted(ms for deal in deals for ms in deal.cpu_ms)
    mean = statistics.mean(deal.score for deal in wins) if wins else math.nan
    lines = [
        f"{name}: {setting}",
        f"  won {len(wins)} of {len(deals)}, mean winning score {mean:.2f}, CPU ms per decision "
        f"median {statistics.median(cpu):.1f} / p90 {cpu[int(0.9 * (len(cpu) - 1))]:.1f}",
    ]
    counts: Counter[tuple[str, bool]] = Counter(kind for deal in wins for kind in deal.onto_piles)
    if wins:
        per_game = [
            f"{phase} {counts[phase, True] / len(wins):.2f} forced"
            + ("" if phase == "full" else f" + {counts[phase, False] / len(wins):.2f} chosen")
            for phase in PHASES
        ]
        total = sum(counts.values()) / len(wins)
        lines.append(
            f"  cards put on a pile per won game: {total:.2f} (" + ", ".join(per_game) + ")"
        )
    sampled = sum(deal.sampled for deal in deals)
    if sampled:
        overruled = sum(deal.overruled for deal in deals)
        lines.append(f"  the sampled orders overruled the search in {overruled} of {sampled}")
    return lines


def figures(settings: dict[str, Setting], report: Report | None) -> dict[str, Any]:
    """What ``--json`` reports: each setting (its fields, and as the table names it), its
    deals, and the paired difference (none for ``--dry-run``)."""
    result: dict[str, Any] = {
        name: {
            "setting": {**dataclasses.asdict(setting), "text": str(setting)},
            "deals": [dataclasses.asdict(deal) for deal in report.deals[name]] if report else [],
        }
        for name, setting in settings.items()
    }
    if report is not None:
        mean, error = report.difference()
        result["difference"] = {"mean": mean, "error": error, "deals": report.differences()}
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=2000, help="the first deal's seed")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument(
        "--a", default="", help="the baseline setting (default: the default player)"
    )
    parser.add_argument("--b", default="", help="the candidate setting")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--dry-run", action="store_true", help="print the two settings and play nothing"
    )
    add_json_option(parser)
    options = parser.parse_args(argv)
    try:
        a, b = Setting.parse(options.a), Setting.parse(options.b)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    if options.dry_run:
        print(f"A: {a}\nB: {b}")
        write_json(options.json, figures({"a": a, "b": b}, None))
        return 0
    start = time.perf_counter()
    report = run(options.first, options.deals, a, b, options.jobs)
    last = options.first + options.deals - 1
    print(f"deals {options.first}-{last}, {time.perf_counter() - start:.0f} s")
    for name, setting in (("A", a), ("B", b)):
        print("\n".join(describe(name, setting, report.deals[name.lower()])))
    mean, spread = report.difference()
    better = sum(diff > 0 for diff in report.differences())
    worse = sum(diff < 0 for diff in report.differences())
    print(
        f"B - A, deal by deal (a loss counts 0): {mean:+.2f} ± {spread:.2f} (standard error); "
        f"B scores more on {better} deals, less on {worse}"
    )
    write_json(options.json, figures({"a": a, "b": b}, report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
