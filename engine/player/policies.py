"""The one-step policies, ``random`` and ``greedy``, and Monte Carlo rollouts that estimate
what a placement is worth when the game goes on with one of them.

They work on an :class:`engine.Board`, the engine's checked fast interface
(:meth:`Board.legal_mask`, :meth:`Board.place`, cells and masks), and look at nothing but the
grid and the current card, which are public. A rollout board is a :meth:`Board.redeal` of the
unseen cards: the current card first, then a random order of the others, drawn by the caller's
seeded generator.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.board import Board
from engine.grid import cells_of
from engine.rules import Status

__all__ = ["Chooser", "RolloutResult", "greedy_cell", "random_cell", "rollouts"]

_PLAYING = Status.IN_PROGRESS
_WON = Status.WON
_LOST = Status.LOST
UNCAPPED_ROUNDS = 64  # rollouts per cell when the budget has no cap at all

Chooser = Callable[[Board, random.Random], int]
"""Picks a legal cell of an unfinished board."""


def random_cell(board: Board, rng: random.Random) -> int:
    """A uniformly random legal cell."""
    return rng.choice(cells_of(board.legal_mask()))


def greedy_cell(board: Board) -> int:
    """The cell leaving the fewest face-down piles after the placement (a win first, a loss
    last); ties go to a new pile rather than a stacked card, then to the lower pile, then to
    the first cell in row-then-column order."""
    best_cell = -1
    best_down = best_height = 99
    for cell in cells_of(board.legal_mask()):
        child = board.copy()
        status = child.place(cell)
        if status is _WON:
            return cell
        face_down = 5 if status is _LOST else child.face_down_count
        if face_down > best_down:
            continue  # the pile height only breaks ties
        height = board.pile_height(cell)
        if face_down < best_down or height < best_height:
            best_cell, best_down, best_height = cell, face_down, height
    return best_cell


def greedy_playout_cell(board: Board, rng: random.Random) -> int:
    """:func:`greedy_cell` with the :data:`Chooser` signature (greedy never draws)."""
    return greedy_cell(board)


@dataclass(frozen=True, slots=True)
class RolloutResult:
    """Per legal cell (in cell order): the share of rollouts won and the mean score (losses 0)."""

    cells: tuple[int, ...]
    win: tuple[float, ...]
    score: tuple[float, ...]
    samples: int  # rollouts per cell
    placements: int  # simulated placements, one-step probes included


def rollouts(
    board: Board,
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
    cells = cells_of(board.legal_mask())
    current, *stock = board.unseen()
    probes = chooser is not random_cell
    wins = [0] * len(cells)
    scores = [0] * len(cells)
    placements = 0
    rounds = 0
    while True:
        order = stock.copy()
        rng.shuffle(order)
        dealt = board.redeal([current, *order])
        for i, cell in enumerate(cells):
            child = dealt.copy()
            status = child.place(cell)
            placements += 1
            while status is _PLAYING:
                if probes:
                    placements += child.legal_mask().bit_count()
                status = child.place(chooser(child, rng))
                placements += 1
            if status is _WON:
                wins[i] += 1
                scores[i] += child.stock_count
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
