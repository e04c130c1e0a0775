"""The one-step policies, ``random`` and ``greedy``, and Monte Carlo rollouts that estimate
what a placement is worth when the game goes on with one of them.

They work on a :class:`Game` through the engine's private fast path and look at nothing but
the grid and the current card, which are public. A rollout game's stock is a random order of
the unseen cards, drawn by the caller's seeded generator.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.game import Game
from engine.grid import cells_of

__all__ = ["Chooser", "RolloutResult", "greedy_cell", "random_cell", "rollouts"]

_DECK_SIZE = 40
_LOST = 2
UNCAPPED_ROUNDS = 64  # rollouts per cell when the budget has no cap at all

Chooser = Callable[[Game, random.Random], int]
"""Picks a legal cell of an unfinished game."""


def random_cell(game: Game, rng: random.Random) -> int:
    """A uniformly random legal cell."""
    return rng.choice(cells_of(game._legal_mask()))


def greedy_cell(game: Game) -> int:
    """The cell leaving the fewest face-down piles after the placement (a win first, a loss
    last); ties go to a new pile rather than a stacked card, then to the lower pile, then to
    the first cell in row-then-column order."""
    best_cell = -1
    best_key = (99, 0, 0)
    occupied = game._occupied
    piles = game._piles
    for cell in cells_of(game._legal_mask()):
        child = game.copy()
        child._apply(cell)
        status = child._status
        if status == 1:
            return cell
        face_down = 5 if status == _LOST else (child._occupied & ~child._up).bit_count()
        key = (face_down, len(piles[cell]) if occupied >> cell & 1 else 0, 0)
        if key < best_key:
            best_cell, best_key = cell, key
    return best_cell


def greedy_playout_cell(game: Game, rng: random.Random) -> int:
    """:func:`greedy_cell` with the :data:`Chooser` signature (greedy never draws)."""
    return greedy_cell(game)


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """Per legal cell (in cell order): the share of rollouts won and the mean score (losses 0)."""

    cells: tuple[int, ...]
    win: tuple[float, ...]
    score: tuple[float, ...]
    samples: int  # rollouts per cell
    placements: int  # simulated placements, one-step probes included


def rollouts(
    game: Game,
    chooser: Chooser,
    rng: random.Random,
    max_placements: int | None,
    deadline: float | None = None,
) -> RolloutResult:
    """Play each legal placement of the current card, then the game out with ``chooser``,
    over shuffled stocks drawn from ``rng``: one shared stock order per round, so the cells are
    compared on the same futures. Rounds continue while the effort budget and the deadline
    allow; there is always at least one.
    """
    cells = cells_of(game._legal_mask())
    head = game._deck[: game._placed + 1]
    stock = game._deck[game._placed + 1 :]
    probes = chooser is not random_cell
    wins = [0] * len(cells)
    scores = [0] * len(cells)
    placements = 0
    rounds = 0
    while True:
        order = stock.copy()
        rng.shuffle(order)
        deck = head + order
        for i, cell in enumerate(cells):
            child = game.copy()
            child._deck = deck
            child._apply(cell)
            placements += 1
            while not child._status:
                if probes:
                    placements += child._legal_mask().bit_count()
                child._apply(chooser(child, rng))
                placements += 1
            if child._status == 1:
                wins[i] += 1
                scores[i] += _DECK_SIZE - child._placed
        rounds += 1
        per_round = placements / rounds
        if max_placements is not None and placements + per_round > max_placements:
            break
        if deadline is not None and time.perf_counter() > deadline:
            break
        if max_placements is None and deadline is None and rounds >= UNCAPPED_ROUNDS:
            break
    return RolloutResult(
        cells=tuple(cells),
        win=tuple(w / rounds for w in wins),
        score=tuple(s / rounds for s in scores),
        samples=rounds,
        placements=placements,
    )
