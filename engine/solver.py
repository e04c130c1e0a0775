"""The hindsight optimum: the best score a deal allows when the whole deck order is known.

A finished game reveals its deck, so a player may ask how well the deal could have gone.
:func:`solve` answers with an :class:`Optimum`: the best winning score, a line of placements
reaching it, and whether the search proved that nothing scores more.

>>> from engine import Game, replay
>>> deck = Game.from_seed(1).deck
>>> optimum = solve(deck)
>>> optimum.score, optimum.proven, optimum.upper_bound
(24, True, 24)
>>> replay(deck, optimum.line).score
24

How it searches
---------------
The deck order fixes which card each placement uses, so the only choice is where it goes. A won
game has 16 piles, so from a position with ``E`` empty cells (of the final 4 x 4) exactly ``E``
of the remaining placements start a new pile and the others, the *extra* placements, go on top
of a pile. The score of a win is ``40 - placed - E - extra``, hence:

* **Iterative deepening on the extra placements.** Level ``w`` searches depth-first for a win
  with at most ``w`` extra placements, for ``w = 0, 1, 2...``. Levels below ``w`` failed, so the
  first win found is optimal (``proven``) and the score of level ``w`` is an admissible upper
  bound while that level runs: no line can score more than ``40 - placed - E - w``.
* **Pruning by counting.** Inside level ``w`` a node with ``k`` extra placements left may start
  new piles freely and stack at most ``k`` cards: a stacking placement is not even tried when
  ``k == 0``. Sound because every new pile fills one empty cell and a win needs all of them.
* **Pruning by parity** (:func:`flips_can_clear`), when no extra placement is left. From then on
  every placement starts a new pile on an empty cell ``z`` and turns over every other pile of
  ``z``'s row or none of them, and the same for its column; a pile that exists now is never
  covered again. So a pile ``y`` at (row ``r``, column ``c``) ends face down exactly when
  ``down(y) xor A[r] xor B[c]`` is 1, where ``A[r]`` is the parity of the row flips still to
  happen in row ``r`` and ``B[c]`` that of the column flips in column ``c``; ``A[r]`` is 0 for a
  row where no pile can be added any more, ``B[c]`` likewise. A win needs every pile face up,
  so if no choice of the ``A`` and ``B`` bits solves ``down(y) = A[r] xor B[c]`` for every
  pile, no line wins without another extra placement. It ignores the ranks (whether a flip
  happens), so it never cuts a winning line; it is exact about which piles a flip reaches.
* **A transposition table** keyed by the whole state that matters for the future (top ranks,
  face-up piles, pile heights; the number of cards placed follows from the heights) remembers
  the largest extra allowance with which a position was searched and failed.
* **Symmetry.** The rules are the same under the eight symmetries of the square around the first
  pile; while the position is symmetric (the first few placements), only one placement of each
  set of symmetric ones is searched.
* **Move ordering**: a win first, then the placements leaving the fewest face-down piles, new
  piles before stacked cards.

The effort is counted in simulated placements (``nodes``), so a budget gives the same answer on
any machine. When the budget runs out during level ``w`` the search looks, with the budget kept
in reserve, for any win (more extra placements allowed, the same pruning) so that a best score
found can be reported with the bound ``40 - placed - E - w``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import DECK_SIZE, Card
from engine.game import Game, Status
from engine.grid import CELL_OF, COL_BAND, POSITION, ROW_BAND, Position, cells_of

__all__ = ["DEFAULT_NODES", "Optimum", "flips_can_clear", "solve", "solve_from"]

DEFAULT_NODES = 2_000_000
"""Default effort of :func:`solve`, in simulated placements (about ... s on one core)."""

RESERVE_SHARE = 0.1
"""Share of the budget kept back to find some win when the exact search runs out of budget."""

_FULL_GRID = 16
_WON = Status.WON
_LOST = Status.LOST
_ROW_BITS = 0x7F  # the seven cells of a window row, in one byte of a cell mask
_SYMMETRIC_UNTIL = 5  # placements after which positions are hardly ever symmetric


@dataclass(frozen=True)
class Optimum:
    """What the best play with the deck order known achieves from a position."""

    score: int | None  # best winning score found (cards left in the stock); None: no win found
    proven: bool  # True: score is the optimum (or, with score None, no win exists)
    upper_bound: int | None  # no line scores more than this; None if proven unwinnable
    line: tuple[Position, ...]  # placements from the position reaching `score` (or empty)
    nodes: int  # search effort spent, in simulated placements


def _symmetries() -> list[list[int]]:
    """The cell permutations of the eight symmetries of the square around (0, 0), the identity
    excepted."""
    out = []
    for flags in range(1, 8):
        perm = [-1] * len(POSITION)
        for cell, position in enumerate(POSITION):
            if position is None:
                continue
            row, col = position
            if flags & 1:
                row = -row
            if flags & 2:
                col = -col
            if flags & 4:
                row, col = col, row
            perm[cell] = CELL_OF[(row, col)]
        out.append(perm)
    return out


_SYMMETRIES = _symmetries()


def _columns(mask: int) -> int:
    """The 7-bit set of window columns holding a cell of ``mask``."""
    mask |= mask >> 32
    mask |= mask >> 16
    mask |= mask >> 8
    return mask & _ROW_BITS


def _rows(mask: int) -> int:
    """The 7-bit set of window rows holding a cell of ``mask``."""
    rows = row = 0
    while mask:
        if mask & _ROW_BITS:
            rows |= 1 << row
        mask >>= 8
        row += 1
    return rows


def flips_can_clear(occupied: int, face_up: int) -> bool:
    """Whether row and column flips alone could still turn every pile face up.

    ``occupied`` and ``face_up`` are cell masks (:attr:`Game.occupied_mask`,
    :attr:`Game.face_up_mask`). Solves ``down(y) = A[r] xor B[c]`` over the piles ``y`` at
    ``(r, c)``, with ``A[r] = 0`` for rows and ``B[c] = 0`` for columns where no pile can be added
    any more (the module docstring says why this is a necessary condition for a win without
    stacking a card); a union-find with parities over the rows and columns does it.

    >>> from engine.grid import cell_of
    >>> a, b, c, d = (cell_of(0, 0), cell_of(0, 1), cell_of(1, 0), cell_of(1, 1))
    >>> square = 1 << a | 1 << b | 1 << c | 1 << d
    >>> flips_can_clear(square, square & ~(1 << a))  # one face down: parity 1 on a 2 x 2 square
    False
    >>> flips_can_clear(square, 1 << a | 1 << d)  # the row flips of row 0 and column 0 clear it
    True
    """
    down = occupied & ~face_up
    rows_used = _rows(occupied)
    cols_used = _columns(occupied)
    empty = ROW_BAND[rows_used] & COL_BAND[cols_used] & ~occupied
    free_cols = _columns(empty)
    # Nodes 0..6: the rows; 7..13: the columns; 14: the constant 0.
    parent = list(range(15))
    parity = [0] * 15

    def find(node: int) -> tuple[int, int]:
        bit = 0
        while parent[node] != node:
            bit ^= parity[node]
            node = parent[node]
        return node, bit

    def join(a: int, b: int, bit: int) -> bool:
        root_a, bit_a = find(a)
        root_b, bit_b = find(b)
        if root_a == root_b:
            return bit_a ^ bit_b == bit
        parent[root_a] = root_b
        parity[root_a] = bit_a ^ bit_b ^ bit
        return True

    for col in range(7):
        if cols_used >> col & 1 and not free_cols >> col & 1:
            join(7 + col, 14, 0)
    row = 0
    while occupied:
        piles = occupied & _ROW_BITS
        if piles:
            if not empty & _ROW_BITS:
                join(row, 14, 0)
            downs = down & _ROW_BITS
            col = 0
            while piles:
                if piles & 1 and not join(row, 7 + col, downs & 1):
                    return False
                piles >>= 1
                downs >>= 1
                col += 1
        occupied >>= 8
        down >>= 8
        empty >>= 8
        row += 1
    return True


class _OutOfBudget(Exception):
    """The node budget ran out (unwinds the search)."""


class _Search:
    """One search from a position: the transposition table, the caches and the effort."""

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.nodes = 0
        self.failed: dict[tuple[int, int, tuple[int, ...]], int] = {}
        self.clearable: dict[int, bool] = {}
        self.line: list[int] = []

    def can_clear(self, occupied: int, face_up: int) -> bool:
        key = occupied << 64 | (occupied & ~face_up)
        known = self.clearable.get(key)
        if known is None:
            known = self.clearable[key] = flips_can_clear(occupied, face_up)
        return known

    def search(self, game: Game, heights: int, extra: int) -> bool:
        """Whether ``game`` can be won with at most ``extra`` stacked cards; on success the
        cells of the line are in ``self.line``, last first."""
        occupied, face_up, _, legal, placed = game.bitboards()
        tops = game.top_ranks
        key = (face_up, heights, tops)
        if self.failed.get(key, -1) >= extra:
            return False
        if extra == 0 and occupied and not self.can_clear(occupied, face_up):
            self.failed[key] = extra
            return False
        cells = cells_of(legal if extra else legal & ~occupied)
        if placed <= _SYMMETRIC_UNTIL and occupied:
            cells = _one_per_orbit(cells, occupied, face_up, heights, tops)
        children = []
        for cell in cells:
            self.nodes += 1
            if self.limit is not None and self.nodes > self.limit:
                raise _OutOfBudget
            child = game.copy()
            status = child.place_cell(cell)
            if status is _WON:
                self.line.append(cell)
                return True
            if status is _LOST:
                continue
            stacked = occupied >> cell & 1
            children.append((child.face_down_count * 2 + stacked, cell, child))
        children.sort(key=_order)
        for _, cell, child in children:
            stacked = occupied >> cell & 1
            if self.search(child, heights + (1 << 3 * cell), extra - stacked):
                self.line.append(cell)
                return True
        self.failed[key] = extra
        return False


def _order(child: tuple[int, int, Game]) -> tuple[int, int]:
    return child[0], child[1]


def _one_per_orbit(
    cells: list[int], occupied: int, face_up: int, heights: int, tops: tuple[int, ...]
) -> list[int]:
    """The cells that are the first of their orbit under the symmetries that map the position
    onto itself (placements on symmetric cells lead to mirror images of the same game)."""
    stabiliser = []
    piles = cells_of(occupied)
    for perm in _SYMMETRIES:
        for cell in piles:
            image = perm[cell]
            if (
                not occupied >> image & 1
                or face_up >> cell & 1 != face_up >> image & 1
                or tops[cell] != tops[image]
                or heights >> 3 * cell & 7 != heights >> 3 * image & 7
            ):
                break
        else:
            stabiliser.append(perm)
    if not stabiliser:
        return cells
    return [cell for cell in cells if all(perm[cell] >= cell for perm in stabiliser)]


def solve(deck: Sequence[Card | str], *, nodes: int | None = DEFAULT_NODES) -> Optimum:
    """The best score of the deal ``deck`` (``deck[0]`` drawn first) with its order known, and a
    line of placements from the first card reaching it, within ``nodes`` simulated placements
    (``None``: no limit).

    >>> from engine import Game
    >>> solve(Game.from_seed(3).deck).score
    24
    """
    return solve_from(Game(deck), nodes=nodes)


def solve_from(game: Game, *, nodes: int | None = DEFAULT_NODES) -> Optimum:
    """:func:`solve` from the position of ``game`` (left unchanged): the line starts with the
    current card. A game already over has nothing left to choose."""
    if game.is_over:
        score = game.score
        return Optimum(score=score, proven=True, upper_bound=score, line=(), nodes=0)
    occupied = game.occupied_mask
    placed = game.placements_count
    empty = _FULL_GRID - occupied.bit_count()
    best = DECK_SIZE - placed - empty  # the score with no extra placement
    heights = 0
    for cell in cells_of(occupied):
        heights += game.pile_height(cell) << 3 * cell
    exact_limit = None if nodes is None else max(1, int(nodes * (1 - RESERVE_SHARE)))
    search = _Search(exact_limit)
    for extra in range(best + 1):
        try:
            found = search.search(game, heights, extra)
        except _OutOfBudget:
            return _best_effort(search, game, heights, nodes, best, extra)
        if found:
            return Optimum(
                score=best - extra,
                proven=True,
                upper_bound=best - extra,
                line=_positions(search.line),
                nodes=search.nodes,
            )
    return Optimum(score=None, proven=True, upper_bound=None, line=(), nodes=search.nodes)


def _best_effort(
    search: _Search, game: Game, heights: int, nodes: int | None, best: int, extra: int
) -> Optimum:
    """The exact search ran out of budget in level ``extra``, so ``best - extra`` is an upper
    bound: spend the reserve on any win (every extra placement allowed), keeping the failures
    already proven."""
    upper_bound = best - extra
    search.limit = nodes
    search.line = []
    spent = search.nodes
    try:
        found = search.search(game, heights, best)
    except _OutOfBudget:
        found = False
    search.nodes = max(search.nodes, spent)
    if not found:
        return Optimum(
            score=None, proven=False, upper_bound=upper_bound, line=(), nodes=search.nodes
        )
    line = _positions(search.line)
    score = DECK_SIZE - game.placements_count - len(line)
    return Optimum(
        score=score,
        proven=score == upper_bound,
        upper_bound=upper_bound,
        line=line,
        nodes=search.nodes,
    )


def _positions(cells_last_first: list[int]) -> tuple[Position, ...]:
    return tuple(POSITION[cell] for cell in reversed(cells_last_first))  # type: ignore[misc]
