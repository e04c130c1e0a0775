"""Engine speed: random play from seeded deals, on one core.

    python bench/engine_speed.py [--seconds 5]

Each turn asks the public API for the legal placements and places the current card at one
of them chosen uniformly at random (``Game.legal_placements`` + ``Game.place``, results and
all). The last line starts with the placements-per-second figure, e.g. ``123456 placements/s``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import Game


def play(seconds: float, seed: int) -> tuple[int, int, int, float]:
    """Play random games for about ``seconds``; return placements, games, wins, elapsed."""
    chooser = random.Random(seed)
    placements = games = wins = 0
    deal = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            game = Game.from_seed(deal)
            deal += 1
            while not game.is_over:
                game.place(chooser.choice(game.legal_placements()))
                placements += 1
            games += 1
            wins += game.score is not None
    return placements, games, wins, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    placements, games, wins, elapsed = play(args.seconds, args.seed)
    print(f"python {sys.version.split()[0]}, one core, {elapsed:.2f} s")
    print(f"{games} games ({wins} won), {games / elapsed:.0f} games/s (deal from seed included)")
    print(f"{placements / elapsed:.0f} placements/s (legal-placement generation included)")


if __name__ == "__main__":
    main()
