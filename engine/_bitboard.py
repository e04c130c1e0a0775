"""The engine's flip rule, written once; private to the ``engine`` package.

:func:`quiet_ranks` is the flip rule of RULES.md (steps 3 and 4) for one line, and
:func:`flipped` applies it to a placement's row and column. :meth:`engine.Game.place_cell`
plays by it, and so does the hindsight solver (:mod:`engine.solver`), which keeps a position in
a few integers of its own: the two cannot disagree about what a placement turns over.

Why private: both functions trust their callers (a mask is taken to be a set of piles of the
grid, a rank to be a rank), because their callers are the engine's own hot loops, where a check
per call would cost the computer player a share of its speed. Only the engine's own modules
import this one.

Cells, masks and card numbers are those of :mod:`engine.grid` and :mod:`engine.cards`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import grid
from engine.grid import COL_OTHERS, ROW_OTHERS

__all__ = ["ALL_RANKS", "RANK_BIT", "flipped", "quiet_ranks"]

RANK_BIT = [0] + [1 << (rank - 1) for rank in range(1, 11)]  # a set of ranks: bit r - 1
ALL_RANKS = (1 << 10) - 1

# _SPAN[ranks]: for a set of ranks, every rank from its lowest to its highest (the flip rule's
# quiet ranks, once the face-up tops of a line are known).
_SPAN = [0] + [((1 << r.bit_length()) - 1) ^ ((r & -r) - 1) for r in range(1, 1 << 10)]
# _LINE_CELLS[mask]: the cells of any set of cells inside one window row or column, so that
# the rule reads a line's tops without decoding its mask bit by bit.
_LINE_CELLS: dict[int, tuple[int, ...]] = {}
for _line in {grid.ROW_OTHERS[c] | 1 << c for c in grid.CELLS} | {
    grid.COL_OTHERS[c] | 1 << c for c in grid.CELLS
}:
    _part = _line
    while _part:  # every non-empty subset of the line
        _LINE_CELLS[_part] = tuple(grid.cells_of(_part))
        _part = (_part - 1) & _line


def quiet_ranks(others: int, face_up: int, tops: Sequence[int]) -> int:
    """The flip rule for one line: the ranks (bit ``r - 1`` for rank ``r``) a card placed in a
    row or column whose other piles are ``others`` may have without turning them over.

    A placed card turns over every other pile of its line unless some face-up top among them
    is at least its rank and some face-up top is at most its rank (a tie is neither highest
    nor lowest). So the quiet ranks run from the lowest face-up top to the highest, both
    included; none if every other pile is face down; all if there is no other pile (nothing
    to turn). ``tops`` holds each cell's top rank; face-down tops are never read.

    Why one line at a time: the game and the solver ask it about one rank, the computer player
    asks which ranks of the unseen cards would flip a line, and this answers both.
    """
    faced = others & face_up
    if not faced:
        return 0 if others else ALL_RANKS
    ranks = 0
    for cell in _LINE_CELLS.get(faced) or grid.cells_of(faced):
        ranks |= RANK_BIT[tops[cell]]
    return _SPAN[ranks]


def flipped(occupied: int, face_up: int, tops: Sequence[int], cell: int, rank: int) -> int:
    """The piles a card of ``rank`` placed on ``cell`` turns over: the row check and the column
    check, both judged on the grid as it was (the placed pile itself is never turned)."""
    bit = RANK_BIT[rank]
    row = occupied & ROW_OTHERS[cell]
    flips = row if row and not quiet_ranks(row, face_up, tops) & bit else 0
    col = occupied & COL_OTHERS[cell]
    if col and not quiet_ranks(col, face_up, tops) & bit:
        flips |= col
    return flips
