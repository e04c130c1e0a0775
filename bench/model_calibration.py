"""The player's model of a position against how the player's own games really end.

    python bench/model_calibration.py --first 10000 --deals 165
    python bench/model_calibration.py --deals 100 --setting "placements=6000"

Plays deals with a setting of the ``best`` player (a setting as in ``bench/player_pairs.py``;
empty: the service's player) and, at every position after a placement that leaves the game
going, sets the model's value of the position as it stands (:meth:`Model.estimate`, on the
search's scale ``win_weight * p + e``, no further card looked at) against the deal's outcome
on the same scale (``win_weight * won + score``). It prints, by piles and face-down piles, the
mean of outcome minus model with its standard error and the number of positions; then, for the
positions with a full grid, how many more cards the player spent before the win, by face-down
piles, and how many of those deals were lost.

What it measures is the positions the player reaches. The player goes into face-down piles
only when it cannot avoid them or when something the model does not see pays for them, so a
positive mean there does not say that another position with as many face-down piles is worth
more than the model says: the README ("The computer player and hints") shows a model that
took this table at its word losing three cards a deal.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.player_pairs import Setting, decide, mean_and_error
from bench.results import add_json_option, write_json
from engine import DECK_SIZE, MAX_FACE_DOWN, Game, Status
from engine.game import FULL_GRID


@dataclass(frozen=True, slots=True)
class Sample:
    """One position after a placement, with the game still going."""

    piles: int
    face_down: int
    placed: int
    model: float  # win_weight * p + e of the position as it stands


@dataclass(frozen=True, slots=True)
class Deal:
    seed: int
    won: bool
    score: int  # 0 for a loss
    samples: tuple[Sample, ...]


def play(seed: int, setting: Setting) -> Deal:
    model = setting.model
    game = Game.from_seed(seed)
    samples: list[Sample] = []
    while not game.is_over:
        game.place(decide(game, setting))
        if game.is_over:
            break
        occupied, up, open_cells, _, placed = game.board().bitboards()
        down = occupied & ~up
        piles, face_down = occupied.bit_count(), down.bit_count()
        p, e = model.estimate(face_down, (down & ~open_cells).bit_count(), piles, placed)
        samples.append(Sample(piles, face_down, placed, model.win_weight * p + e))
    won = game.status is Status.WON
    return Deal(seed, won, game.score or 0, tuple(samples))


def _task(job: tuple[int, Setting]) -> Deal:
    return play(*job)


def run(first: int, count: int, setting: Setting, jobs: int) -> list[Deal]:
    tasks = [(seed, setting) for seed in range(first, first + count)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            return pool.map(_task, tasks, chunksize=1)
    return [_task(task) for task in tasks]


def report(deals: list[Deal], setting: Setting) -> list[str]:
    """The two tables of the module's docstring, as lines."""
    weight = setting.model.win_weight
    residuals: dict[tuple[int, int], list[float]] = defaultdict(list)
    full: dict[int, list[float]] = defaultdict(list)  # cards spent after a full grid
    full_lost: dict[int, int] = defaultdict(int)
    for deal in deals:
        outcome = weight * deal.won + deal.score
        for sample in deal.samples:
            residuals[sample.piles, sample.face_down].append(outcome - sample.model)
            if sample.piles == FULL_GRID:
                if deal.won:
                    full[sample.face_down].append(DECK_SIZE - sample.placed - deal.score)
                else:
                    full_lost[sample.face_down] += 1
    positions = sum(len(deal.samples) for deal in deals)
    lines = [
        f"{positions} positions of {len(deals)} deals, {sum(d.won for d in deals)} won",
        "outcome - model, by piles (rows) and face-down piles (columns): mean ± error (count)",
        "piles " + "".join(f"{f'{d} face down':>21}" for d in range(MAX_FACE_DOWN + 1)),
    ]
    for piles in range(1, FULL_GRID + 1):
        cells = []
        for face_down in range(MAX_FACE_DOWN + 1):
            values = residuals.get((piles, face_down), [])
            if values:
                mean, error = mean_and_error(values)
                spread = "   -" if math.isnan(error) else f"{error:4.2f}"
                cells.append(f"{mean:+7.2f} ± {spread} ({len(values):4d})")
            else:
                cells.append(" " * 21)
        lines.append(f"{piles:5d} " + "".join(cells))
    lines.append("full grid: cards spent before the win, by face-down piles")
    for face_down in sorted(set(full) | set(full_lost)):
        spent = full.get(face_down, [])
        average = f"{statistics.mean(spent):.2f}" if spent else "-"
        lines.append(
            f"  {face_down} face down: {len(spent)} positions of won deals, mean {average};"
            f" {full_lost.get(face_down, 0)} of lost deals"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=10000, help="the first deal's seed")
    parser.add_argument("--deals", type=int, default=165)
    parser.add_argument("--setting", default="", help="the player (default: the service's)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--deals-from",
        type=Path,
        metavar="PATH",
        help="play nothing: the tables of the deals a --json run wrote to PATH",
    )
    add_json_option(parser)
    options = parser.parse_args(argv)
    try:
        setting = Setting.parse(options.setting)
    except (TypeError, ValueError) as error:
        parser.error(str(error))
    if options.deals_from is not None:
        deals = load_deals(options.deals_from)
        print(f"deals from {options.deals_from}: {setting}")
    else:
        deals = run(options.first, options.deals, setting, options.jobs)
        print(f"deals {options.first}-{options.first + options.deals - 1}: {setting}")
    print("\n".join(report(deals, setting)))
    write_json(options.json, {"deals": [dataclasses.asdict(deal) for deal in deals]})
    return 0


def load_deals(path: Path) -> list[Deal]:
    """The deals of a ``--json`` file, to print the tables again (or of other deals) without
    playing them again."""
    return [
        Deal(
            deal["seed"],
            deal["won"],
            deal["score"],
            tuple(Sample(**sample) for sample in deal["samples"]),
        )
        for deal in json.loads(path.read_text(encoding="utf-8"))["deals"]
    ]


if __name__ == "__main__":
    raise SystemExit(main())
