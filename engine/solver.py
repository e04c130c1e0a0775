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
* **A transposition table** of the positions searched in full without a win, keyed by what
  decides the future: the face-up piles, the pile heights (the number of cards placed follows),
  the allowance, and each top card's rank reduced to its class among the ranks of the cards
  the search may still place (:meth:`_Search.rank_classes`: the rules only ever compare a
  placed card with the piles, never two piles, so a 4 and a 5 behave alike when no card to
  come is a 4 or a 5). Lines that put cards of alike ranks in other orders meet there.
* **Symmetry.** The rules are the same under the eight symmetries of the square around the first
  pile; while the position is symmetric (the first few placements), only one placement of each
  set of symmetric ones is searched.
* **Move ordering**: a win first, then the placements after which flips could still clear the
  grid (the same parity test), then those leaving the fewest face-down piles, new piles before
  stacked cards.

The effort is counted in simulated placements (``nodes``: every placement tried, refused ones
included), so a budget gives the same answer on any machine. All of it but :data:`RESERVE` (or
half of it, if less) goes to the exact search; when that runs out during level ``w``, the rest
goes to the levels above ``w`` in rounds (``_best_effort``), and the best win found is reported
with the bound ``40 - placed - E - w`` (lowered by any of those levels that fails in full).

What it achieves on deals 0..999 is in the README ("How winnable Foursquare is"). A deal whose
optimum is 24 (no extra placement) is usually proven in a few thousand placements; proving
that level 0 has no win takes a few million, so for those deals the answer within the default
budget is a best score found below 24 with an upper bound of 24.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine._bitboard import flipped
from engine.cards import DECK_SIZE, Card
from engine.game import Game
from engine.grid import (
    CELL_OF,
    COL_BAND,
    NEIGHBOURS,
    ORIGIN,
    POSITION,
    ROW_BAND,
    Position,
    cells_of,
)
from engine.rules import FULL_GRID, MAX_FACE_DOWN, MAX_PILE_HEIGHT

__all__ = ["DEFAULT_NODES", "Optimum", "flips_can_clear", "solve", "solve_from"]

DEFAULT_NODES = 300_000
"""Default effort of :func:`solve`, in simulated placements tried: at most a few seconds of one
core (over deals 0..999: median 6 ms, 90th percentile 1.2 s of CPU), and a transposition table
of a few tens of megabytes at most."""

RESERVE = 150_000
"""Placements kept back (at most half the budget) to look for good wins when the exact search
runs out of budget: enough for the levels above to find one in most deals, and small beside a
large budget, which is better spent on proofs."""

_ROW_BITS = 0x7F  # the seven cells of a window row, in one byte of a cell mask
_SYMMETRIC_UNTIL = 5  # placements after which positions are hardly ever symmetric
_FIRST_SLICE = 1_000  # placements for each level in the first round of _best_effort


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

    ``occupied`` and ``face_up`` are cell masks (the first two of
    :meth:`engine.Board.bitboards`). Solves ``down(y) = A[r] xor B[c]`` over the piles ``y`` at
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
    if not down:
        return True  # no flip at all will do
    rows_used = _rows(occupied)
    cols_used = _columns(occupied)
    empty = ROW_BAND[rows_used] & COL_BAND[cols_used] & ~occupied
    free_cols = _columns(empty)
    # The equations, as (node, node, parity) with nodes 0..6 the rows, 7..13 the columns and
    # 14 the constant 0: first the rows and columns that get no more flips, then the piles.
    equations = [(7 + col, 14, 0) for col in range(7) if (cols_used & ~free_cols) >> col & 1]
    row = 0
    while occupied:
        piles = occupied & _ROW_BITS
        if piles:
            if not empty & _ROW_BITS:
                equations.append((row, 14, 0))
            downs = down & _ROW_BITS
            col = 7
            while piles:
                if piles & 1:
                    equations.append((row, col, downs & 1))
                piles >>= 1
                downs >>= 1
                col += 1
        occupied >>= 8
        down >>= 8
        empty >>= 8
        row += 1
    # Union-find with parities (find written out: this runs at every node of the search).
    parent = list(range(15))
    parity = [0] * 15
    for a, b, bit in equations:
        while parent[a] != a:
            bit ^= parity[a]
            a = parent[a]
        while parent[b] != b:
            bit ^= parity[b]
            b = parent[b]
        if a == b:
            if bit:
                return False
        else:
            parent[a] = b
            parity[a] = bit
    return True


class _OutOfBudget(Exception):
    """The node budget ran out (unwinds the search)."""


class _Search:
    """One search from a position: the transposition table, the caches and the effort.

    The search keeps its own copy of the grid in the engine's terms (cell masks of
    :mod:`engine.grid`, the top ranks by cell, the pile heights three bits a cell) and plays a
    placement with a few integer operations instead of :meth:`Board.copy` and
    :meth:`Board.place`: it tries every placement of every position it visits, and most of
    them are refused at once (too many face-down piles, or :func:`flips_can_clear`), so building
    a board for each would cost several times the search itself. Which piles a placement turns
    over it asks the engine's own flip rule (the private bitboard module's ``flipped``, which
    :class:`Game` and :class:`Board` play by); the position it starts from it reads through the
    public :class:`Board`; the tests check it against exhaustive search on :class:`Game`, and
    :func:`solve_from` replays every line it returns through :meth:`Game.place`.
    """

    def __init__(self, game: Game, limit: int | None) -> None:
        self.limit = limit
        self.nodes = 0
        self.failed: set[tuple[int, int, int, int]] = set()
        self.classes: dict[tuple[int, int], list[int]] = {}
        self.clearable: dict[int, bool] = {}
        self.line: list[int] = []
        self.board = game.board()
        self.ranks = [card.rank for card in game.deck]
        self.tops = list(self.board.top_ranks)

    def rank_classes(self, placed: int, count: int) -> list[int]:
        """For each rank, its class among the ranks of the next ``count`` cards from card
        ``placed`` on: twice the number of those ranks below it, plus one if it is one of them.

        The rules never compare two piles already on the grid, only a placed card with them, so
        a top card's rank matters to what follows only through the comparisons with the cards
        still to come, which its class determines. A search with an allowance of ``extra``
        places at most the next ``E + extra`` cards, so two positions whose top ranks have the
        same classes for those cards have the same outcome, and share one table entry.
        """
        known = self.classes.get((placed, count))
        if known is None:
            future = set(self.ranks[placed : placed + count])
            known = [
                2 * sum(1 for k in future if k < rank) + (rank in future) for rank in range(11)
            ]
            self.classes[(placed, count)] = known
        return known

    def can_clear(self, occupied: int, face_up: int) -> bool:
        key = occupied << 64 | (occupied & ~face_up)
        known = self.clearable.get(key)
        if known is None:
            known = self.clearable[key] = flips_can_clear(occupied, face_up)
        return known

    def search(
        self,
        occupied: int,
        face_up: int,
        open_piles: int,
        heights: int,
        frontier: int,
        rows: int,
        cols: int,
        placed: int,
        extra: int,
    ) -> bool:
        """Whether the position can be won with at most ``extra`` stacked cards; on success the
        cells of the line are in ``self.line``, last first."""
        # The key: the position with each top rank replaced by its class among the ranks of the
        # cards this search can still place (rank_classes), and the allowance, which fixes them.
        classes = self.rank_classes(placed, FULL_GRID - occupied.bit_count() + extra)
        tops = self.tops
        code = 0
        for cell in cells_of(occupied):
            code |= classes[tops[cell]] << 5 * cell
        key = (face_up, heights, code, extra)
        if key in self.failed:
            return False
        if occupied:
            legal = frontier & ROW_BAND[rows] & COL_BAND[cols]
            if extra:
                legal |= open_piles
        else:
            legal = 1 << ORIGIN
        cells = cells_of(legal)
        if placed <= _SYMMETRIC_UNTIL and occupied:
            cells = _one_per_orbit(cells, occupied, face_up, heights, tops)
        rank = self.ranks[placed]
        last_card = placed + 1 == DECK_SIZE
        limit = self.limit
        children = []
        for cell in cells:
            if limit is not None and self.nodes >= limit:
                raise _OutOfBudget
            self.nodes += 1
            bit = 1 << cell
            up = (face_up | bit) ^ flipped(occupied, face_up, tops, cell, rank)
            grid = occupied | bit
            down = (grid & ~up).bit_count()
            if down > MAX_FACE_DOWN:
                continue
            if down == 0 and grid.bit_count() == FULL_GRID:
                self.line.append(cell)
                return True
            if last_card:
                continue
            stacked = occupied & bit
            clearable = self.can_clear(grid, up)
            if not clearable and extra == (1 if stacked else 0):
                continue  # no extra placement left after this one, and flips cannot clear
            order = (0 if clearable else 16) + down * 2 + (1 if stacked else 0)
            children.append((order, cell, up))
        children.sort()
        for order, cell, up in children:
            bit = 1 << cell
            old = tops[cell]
            tops[cell] = rank
            if order & 1:
                full = (heights >> 3 * cell & 7) == MAX_PILE_HEIGHT - 1
                found = self.search(
                    occupied,
                    up,
                    open_piles & ~bit if full else open_piles,
                    heights + (1 << 3 * cell),
                    frontier,
                    rows,
                    cols,
                    placed + 1,
                    extra - 1,
                )
            else:
                grid = occupied | bit
                found = self.search(
                    grid,
                    up,
                    open_piles | bit,
                    heights + (1 << 3 * cell),
                    (frontier | NEIGHBOURS[cell]) & ~grid,
                    rows | 1 << (cell >> 3),
                    cols | 1 << (cell & 7),
                    placed + 1,
                    extra,
                )
            tops[cell] = old
            if found:
                self.line.append(cell)
                return True
        self.failed.add(key)
        return False

    def run(self, extra: int) -> bool:
        """:meth:`search` from the position it was built for."""
        board = self.board
        occupied, face_up, open_piles, _, placed = board.bitboards()
        self.tops = list(board.top_ranks)  # a search cut short by the budget leaves it changed
        heights = frontier = 0
        for cell in cells_of(occupied):
            heights += board.pile_height(cell) << 3 * cell
            frontier |= NEIGHBOURS[cell]
        self.line = []
        return self.search(
            occupied,
            face_up,
            open_piles,
            heights,
            frontier & ~occupied,
            _rows(occupied),
            _columns(occupied),
            placed,
            extra,
        )


def _one_per_orbit(
    cells: list[int], occupied: int, face_up: int, heights: int, tops: list[int]
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
    (``None``: no limit, for positions near the end; a deal whose optimum is below 24 can then
    take hours and gigabytes).

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
    placed = game.placements_count
    empty = FULL_GRID - len(game.piles)
    best = DECK_SIZE - placed - empty  # the score with no extra placement
    exact_limit = None if nodes is None else max(1, nodes - min(nodes // 2, RESERVE))
    search = _Search(game, exact_limit)
    for extra in range(best + 1):
        try:
            found = search.run(extra)
        except _OutOfBudget:
            return _best_effort(search, game, nodes, best, extra)
        if found:
            line, score = _replayed(game, search.line)
            if score != best - extra:  # every level below failed in full
                raise AssertionError(f"the solver's line scores {score}, not {best - extra}")
            return Optimum(
                score=score, proven=True, upper_bound=score, line=line, nodes=search.nodes
            )
    return Optimum(score=None, proven=True, upper_bound=None, line=(), nodes=search.nodes)


def _best_effort(search: _Search, game: Game, nodes: int | None, best: int, extra: int) -> Optimum:
    """The exact search ran out of budget in level ``extra``, so ``best - extra`` is an upper
    bound: spend the rest of the budget looking for good wins.

    Level ``L`` asks for a win with at most ``L`` extra placements. A level that has wins
    usually finds one within a few thousand placements (the move ordering leads to it), one
    without them can take millions to fail, and which levels have wins is what we do not
    know. So the levels above ``extra`` are tried in rounds, lowest first, each with a slice
    of the budget that doubles every round (1,000 placements, then 2,000...); a win at level
    ``L`` leaves only the levels below ``L`` to try, and a level that fails in full lowers the
    upper bound. Proven failures stay in the transposition table from one try to the next.
    """
    upper_bound: int | None = best - extra
    line: tuple[Position, ...] = ()
    score = None
    if nodes is None:
        return Optimum(score, False, upper_bound, line, search.nodes)
    lowest = extra + 1  # the lowest level not known to fail
    ceiling = best + 1  # levels from here up cannot beat the win found
    slice_ = _FIRST_SLICE
    while lowest < ceiling and search.nodes < nodes:
        level = lowest
        while level < ceiling and search.nodes < nodes:
            search.limit = min(nodes, search.nodes + slice_)
            try:
                found = search.run(level)
            except _OutOfBudget:
                level += 1
                continue
            if found:
                # At most `level` extra placements: the line may need fewer, since the levels
                # below may have run out of their slice rather than failed. Its own score
                # sets which levels could still beat it.
                line, score = _replayed(game, search.line)
                ceiling = best - score
                break
            # No win with at most `level` extra placements (and none at all if that was all).
            lowest = level + 1
            upper_bound = best - level - 1 if level < best else None
            level += 1
        slice_ *= 2
    return Optimum(
        score=score,
        proven=score == upper_bound,
        upper_bound=upper_bound,
        line=line,
        nodes=search.nodes,
    )


def _replayed(game: Game, cells_last_first: list[int]) -> tuple[tuple[Position, ...], int]:
    """The line as positions and its score, by playing it on a copy of ``game`` with
    :meth:`Game.place`: the search's own placements must agree with the engine's, so a line
    that does not win is a bug."""
    line = tuple(POSITION[cell] for cell in reversed(cells_last_first))
    check = game.copy()
    for position in line:
        check.place(position)  # type: ignore[arg-type]
    if check.score is None:
        raise AssertionError(f"the solver's line ends {check.status.value}, not in a win")
    return line, check.score  # type: ignore[return-value]
