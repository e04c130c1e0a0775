"""What a game's analysis costs: the review of its placements and its hindsight optimum, in CPU.

    python bench/analysis_cost.py [--deals 20] [--effort N] [--play-effort 1000] [--nodes N]

Each deal ``Game.from_seed(0..)`` is played by the computer player at ``--play-effort`` (so
that the games look like a decent player's), then reviewed as the service does
(:func:`engine.analysis.review` at ``--effort`` simulated placements per placement) and solved
(:func:`engine.solver.solve`, ``--nodes`` or the solver's default). CPU time of this process
(``time.process_time``), which a busy machine moves less than wall-clock time. One line per
deal, then a summary line starting with ``review median``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game, Position
from engine.analysis import Label, review
from engine.player.advice import DEFAULT_PLACEMENTS, Budget, advise
from engine.solver import DEFAULT_NODES, solve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    # The service's default (FOURSQUARE_ANALYSIS_PLACEMENTS), so the figures are what it costs.
    parser.add_argument("--effort", type=int, default=DEFAULT_PLACEMENTS)
    parser.add_argument("--play-effort", type=int, default=1000)
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODES)
    options = parser.parse_args(argv)
    reviews: list[float] = []
    per_placement: list[float] = []
    optima: list[float] = []
    labels: Counter[Label] = Counter()
    for seed in range(options.deals):
        game = Game.from_seed(seed)
        positions: list[Position] = []
        while not game.is_over:
            advice = advise(game.public_view(), budget=Budget(placements=options.play_effort))
            positions.append(game.place(advice.placement).position)
        start = time.process_time()
        result = review(game.deck, positions, budget=Budget(placements=options.effort))
        reviewed = time.process_time() - start
        start = time.process_time()
        optimum = solve(game.deck, nodes=options.nodes)
        solved = time.process_time() - start
        reviews.append(reviewed)
        per_placement.append(reviewed / len(positions))
        optima.append(solved)
        labels.update(result.counts())
        print(
            f"deal {seed}: {len(positions)} placements, {game.status.value} {game.score}, "
            f"accuracy {result.accuracy}; review {reviewed:.2f} s, optimum {optimum.score} "
            f"(proven {optimum.proven}) {solved:.2f} s",
            flush=True,
        )
    print(
        f"review median {statistics.median(reviews):.2f} s, max {max(reviews):.2f} s, "
        f"median per placement {1000 * statistics.median(per_placement):.0f} ms; optimum median "
        f"{statistics.median(optima):.2f} s, max {max(optima):.2f} s; labels "
        + ", ".join(f"{label.value} {labels[label]}" for label in Label)
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
