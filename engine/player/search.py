"""The ``best`` player: expectimax over the ranks of the next cards, with an analytic last ply.

Only the order of the stock is secret, so the next card is a uniform draw from the unseen
cards, and only its rank matters for the rules. The search therefore needs no sampling:

* a **decision** tries each legal placement of the known current card;
* a **chance** step averages over the rank of the next card, weighted by how many unseen cards
  have that rank, and for each rank takes the best placement (the player will see the card);
* a **leaf** looks one placement further without playing it: for every legal cell and every
  rank it works out from the row and column alone how many face-down piles that placement would
  leave (:meth:`Searcher.leaf`, :func:`line_summary`), keeps the best cell per rank and scores
  the outcomes with a small model of the win chance and the final score (:class:`Model`).

Stage 1 scores each placement by its leaf; stage 2 adds one chance step and reply (two
placements deep, plus the analytic third); stage 3 deepens the few most promising placements by
one more chance step and reply, following only their best replies. Each stage runs only if its
exact cost in simulated placements fits the budget, so an effort budget gives the same answer on
any machine. Everything is estimated as a pair ``(p, e)``: the probability of winning and the
expected score with losses counted as 0; decisions maximise ``model.win_weight * p + e``.

Simulated games are :class:`engine.Board` objects, the engine's checked fast interface:
:meth:`Board.copy`, :meth:`Board.place`, :meth:`Board.legal_mask` and :meth:`Board.bitboards`
(cell masks of :mod:`engine.grid`), :attr:`Board.top_ranks`, and the flip rule itself as
:meth:`Board.quiet_ranks`. To put a card of rank ``r`` next, the search takes
:meth:`Board.with_next_card` of an unseen card of that rank once per node and rank, then copies
that board for each placement: the rules only read ranks, so which card of the rank it draws
makes no difference, and the suits of hypothetical cards never reach the caller.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Sequence
from dataclasses import dataclass

from engine.board import Board
from engine.cards import Card
from engine.grid import BYTE_CELLS, cells_of
from engine.rules import Status

__all__ = ["DEFAULT_MODEL", "Model", "SearchResult", "Searcher", "line_summary"]

_RANKS = range(1, 11)
_ALL_RANKS = (1 << 10) - 1  # bit r - 1 stands for rank r
_FULL_GRID = 16
_DECK_SIZE = 40
_MAX_FACE_DOWN = 4
_PLAYING = Status.IN_PROGRESS
_WON = Status.WON

# An option of the analytic ply: delta (change of the face-down count, -7..6) and whether it
# adds a pile. Its slot in the accumulator is (delta + 7) * 2 + (0 if it adds a pile else 1).
_DELTA_OFFSET = 7
_SLOTS = 28
_NEW_PILE = 2 * _DELTA_OFFSET
_ON_FACE_UP = 2 * _DELTA_OFFSET + 1
_ON_FACE_DOWN = 2 * (_DELTA_OFFSET - 1) + 1  # the pile itself turns face up
# Line tables are cached per decision under (cells, face-up cells, changed ranks) keys.
_KEY_SHIFT = 56  # the window's cells are bits 0..55
_RANK_SHIFT = 2 * _KEY_SHIFT
# The 7 x 7 window of engine.grid, a window row per byte: cell = 8 * row + col.
_WINDOW = 7
_ROW_CELLS = [[8 * r + c for c in range(_WINDOW)] for r in range(_WINDOW)]
_COL_CELLS = [[8 * r + c for r in range(_WINDOW)] for c in range(_WINDOW)]
_ROW_MASK = [sum(1 << cell for cell in cells) for cells in _ROW_CELLS]
_COL_MASK = [sum(1 << cell for cell in cells) for cells in _COL_CELLS]
# A line's summary for one of its cells (``_line_table``) packed in an int: the quiet ranks at
# bits 0-9, the change of the face-down count plus 8 at bits 10-13, and in a row's table, at
# bits 14-15, what a card placed on the cell itself is (its slot less _FIRST_SLOT: a card on a
# face-down pile, a new pile, a card on a face-up pile). A cell's row code | its column code
# << _COL_SHIFT is the key of its outcomes (``_outcomes_of``): 30 bits, so that Python keeps it
# in one digit, which its int operations and hashing take a fast path for.
_FLIP_AT = 10
_FLIP_BIAS = 8
_SLOT_AT = 14
_FIRST_SLOT = _ON_FACE_DOWN
_COL_SHIFT = 16
_EMPTY_ROW = [_ALL_RANKS | _FLIP_BIAS << _FLIP_AT | _NEW_PILE - _FIRST_SLOT << _SLOT_AT] * _WINDOW
_EMPTY_COL = [_ALL_RANKS | _FLIP_BIAS << _FLIP_AT] * _WINDOW
# The leaf's accumulator is one int: slot s's set of ranks at bits 10 * s .. 10 * s + 9.
_SLOT_BITS = 10
# The window columns of the cells of a byte of a mask (its bits 0-6).
_BYTE_COLS = BYTE_CELLS[0]
# The 4-bit rank places of a line's cells in a cache key.
_ROW_RANKS = [sum(15 << (_RANK_SHIFT + 4 * cell) for cell in cells) for cells in _ROW_CELLS]
_COL_RANKS = [sum(15 << (_RANK_SHIFT + 4 * cell) for cell in cells) for cells in _COL_CELLS]


@dataclass(frozen=True, slots=True)
class Model:
    """How a position is scored where the search stops.

    With ``d`` face-down piles, ``k`` empty cells still to fill and ``placed`` cards used, the
    model says the game is won with probability ``win[d]`` and, if won, scores about
    ``40 - placed - pile_cost * k - extra[d]``. ``win_weight`` is what a win is worth in points
    of score when placements are compared (a placement is chosen to maximise
    ``win_weight * p + e``), so it sets how much score the player risks for a safer game.
    """

    win: tuple[float, float, float, float, float] = (0.999, 0.995, 0.985, 0.96, 0.90)
    extra: tuple[float, float, float, float, float] = (0.0, 1.2, 2.6, 4.2, 6.0)
    pile_cost: float = 1.25
    closed_win: float = 0.8
    closed_extra: float = 1.5
    win_weight: float = 40.0

    def estimate(self, face_down: int, closed: int, piles: int, placed: int) -> tuple[float, float]:
        """``(p, e)`` of a position with ``face_down`` face-down piles, ``piles`` piles and
        ``placed`` cards used, as it stands (no further card looked at); ``closed`` counts the
        piles of four cards that were face down before the last placement, which stay stuck
        if nothing flips them up.

        What the search's leaf scores each outcome of its last placement with, and what
        ``bench/model_calibration.py`` sets against how the player's games really end.
        """
        left = _DECK_SIZE - placed
        if face_down == 0 and piles == _FULL_GRID:
            return 1.0, float(left)
        if face_down > _MAX_FACE_DOWN or left == 0 or left < _FULL_GRID - piles:
            return 0.0, 0.0
        stuck = min(closed, face_down)  # face-down piles of four, if none flips up
        p = self.win[face_down] * self.closed_win**stuck
        score = (
            left
            - self.pile_cost * (_FULL_GRID - piles)
            - self.extra[face_down]
            - self.closed_extra * stuck
        )
        return p, (p * score if score > 0.0 else 0.0)


DEFAULT_MODEL = Model()


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Estimates for each legal cell (in cell order) and the effort spent.

    ``depth[i]`` is the stage that produced cell ``i``'s estimate (a placement that ends the
    game is exact and counts as the deepest). Stage 3 deepens only the leading cells, so cells
    are ranked by depth first, then by utility (:meth:`ranking`).
    """

    cells: tuple[int, ...]
    win: tuple[float, ...]
    score: tuple[float, ...]
    depth: tuple[int, ...]
    placements: int  # simulated placements (engine applies)
    leaves: int  # analytic leaf evaluations
    win_weight: float

    def ranking(self) -> list[int]:
        """Indices of the cells, best first: deepest stage, then highest utility, then cell."""
        weight = self.win_weight
        return sorted(
            range(len(self.cells)),
            key=lambda i: (-self.depth[i], -(weight * self.win[i] + self.score[i]), self.cells[i]),
        )


class _OutOfTime(Exception):
    """Raised inside a stage when the wall-clock budget runs out."""


class Searcher:
    """One decision's search: build it from a board whose grid is the public one, then run it.

    ``unseen`` lists the unseen cards, which are the cards of the stock inside ``board``; the
    order of that stock is never read (each hypothetical next card is chosen by its rank in
    :meth:`_value`). ``deepen_moves`` and ``deepen_replies`` shape stage 3: how many leading
    placements it deepens and how many of the best replies to each next rank it follows. One
    reply, not two, gets stage 3 into most positions at the default effort, and on deals
    1000-1099 that is what raised the mean winning score (README, "The computer player").
    """

    def __init__(
        self,
        board: Board,
        unseen: Sequence[Card],
        model: Model = DEFAULT_MODEL,
        *,
        deepen_moves: int = 2,
        deepen_replies: int = 1,
    ) -> None:
        self.board = board
        self.model = model
        self.deepen_moves = deepen_moves
        self.deepen_replies = deepen_replies
        counts = [0] * 11
        by_rank: list[list[int]] = [[] for _ in counts]
        for card in unseen:
            counts[card.rank] += 1
            by_rank[card.rank].append(card.index)
        self.counts = counts
        self._by_rank = by_rank
        self.placements = 0
        self.leaves = 0
        self._deadline = float("inf")
        self._tables: dict[tuple[int, ...], Sequence[float]] = {}
        self._options: dict[tuple[int, int, int, int], list[tuple[int, float, float]]] = {}
        self._rows: dict[int, list[int]] = {}
        self._cols: dict[int, list[int]] = {}
        self._outcomes: dict[int, int] = {}

    # ------------------------------------------------------------------ running

    def run(
        self, max_placements: int | None = None, max_seconds: float | None = None
    ) -> SearchResult:
        """Run stages 1, 2 and 3 while each fits the budget; keep the last complete stage.

        A stage starts only if its cost in simulated placements (exact for stage 2, a close
        upper estimate for stage 3) fits what is left of ``max_placements``; a stage that runs
        past ``max_seconds`` is abandoned.
        """
        if max_seconds is not None:
            self._deadline = time.perf_counter() + max_seconds
        limit = max_placements if max_placements is not None else 1 << 62
        board = self.board
        counts = self.counts
        cells = cells_of(board.legal_mask())
        children: list[Board] = []
        for cell in cells:
            child = board.copy()
            child.place(cell)
            children.append(child)
        self.placements += len(cells)
        values = [
            self._value(child, counts, 0, 1 << cell)
            for cell, child in zip(cells, children, strict=True)
        ]
        depths = [1] * len(cells)
        try:
            if self.placements + self._stage2_cost(children) <= limit:
                values = [
                    self._timed_value(child, counts, 1, 1 << cell)
                    for cell, child in zip(cells, children, strict=True)
                ]
                depths = [2] * len(cells)
                deep = self._stage3_moves(children, values)
                if deep and self.placements + self._stage3_cost(children, deep) <= limit:
                    deeper = list(values)
                    for i in deep:
                        deeper[i] = self._timed_value(children[i], counts, 2, 1 << cells[i])
                    values = deeper
                    depths = [3 if i in deep else 2 for i in range(len(cells))]
        except _OutOfTime:
            pass
        # A placement that ends the game is valued exactly: it ranks with the deepest.
        deepest = max(depths)
        depths = [
            deepest if child.is_over else d for child, d in zip(children, depths, strict=True)
        ]
        return SearchResult(
            cells=tuple(cells),
            win=tuple(p for p, _ in values),
            score=tuple(e for _, e in values),
            depth=tuple(depths),
            placements=self.placements,
            leaves=self.leaves,
            win_weight=self.model.win_weight,
        )

    def _ranks_left(self) -> int:
        return sum(1 for k in self.counts if k)

    def _stage2_cost(self, children: Sequence[Board]) -> int:
        ranks = self._ranks_left()
        return sum(ranks * child.legal_mask().bit_count() for child in children)

    def _stage3_moves(
        self, children: Sequence[Board], values: Sequence[tuple[float, float]]
    ) -> list[int]:
        """The placements stage 3 deepens: the best few by their stage-2 utility."""
        weight = self.model.win_weight
        order = sorted(
            (i for i, child in enumerate(children) if not child.is_over),
            key=lambda i: (-(weight * values[i][0] + values[i][1]), i),
        )
        return order[: self.deepen_moves] if len(order) > 1 else []

    def _stage3_cost(self, children: Sequence[Board], deep: Sequence[int]) -> int:
        ranks = self._ranks_left()
        cost = 0
        for i in deep:
            width = children[i].legal_mask().bit_count()
            # Every reply to every rank, then every rank again behind the best replies, whose
            # own options are taken to be as many as the placement's (an estimate).
            cost += ranks * width * (1 + self.deepen_replies * ranks)
        return cost

    def _timed_value(
        self, board: Board, counts: list[int], depth: int, changed: int
    ) -> tuple[float, float]:
        if time.perf_counter() > self._deadline:
            raise _OutOfTime
        return self._value(board, counts, depth, changed)

    # ------------------------------------------------------------------ tree

    def _value(
        self, board: Board, counts: list[int], depth: int, changed: int
    ) -> tuple[float, float]:
        """``(p, e)`` of ``board`` after a placement, ``depth`` chance steps deep; ``changed``
        marks the cells placed on since the root."""
        if board.is_over:
            return (1.0, float(board.stock_count)) if board.status is _WON else (0.0, 0.0)
        if depth == 0:
            self.leaves += 1
            return self.leaf(board, self.rank_chances(counts), changed, board.top_ranks)
        weight = self.model.win_weight
        total = sum(counts)
        legal = cells_of(board.legal_mask())
        # The children's top ranks: a placement changes only the rank of its own cell, so one
        # list kept up to date here stands for every child's (cheaper than a snapshot each).
        tops = board.top_ranks
        top = list(tops)
        sum_p = sum_e = 0.0
        for rank in _RANKS:
            k = counts[rank]
            if not k:
                continue
            # Every card of this rank drawn on the way here is one of by_rank[rank][k:].
            drawn = board.with_next_card(self._by_rank[rank][k - 1])
            counts[rank] = k - 1
            best_u = -1.0
            best_p = best_e = 0.0
            if depth == 1:
                table = self.rank_chances(counts)
                leaf = self.leaf
                for cell in legal:
                    child = drawn.copy()
                    status = child.place(cell)
                    if status is not _PLAYING:
                        p, e = (1.0, float(child.stock_count)) if status is _WON else (0.0, 0.0)
                    else:
                        top[cell] = rank
                        p, e = leaf(child, table, changed | 1 << cell, top)
                        top[cell] = tops[cell]
                    u = weight * p + e
                    if u > best_u:
                        best_u, best_p, best_e = u, p, e
                self.leaves += len(legal)
            else:
                # Deeper: rank the replies by their leaf, then look further behind the best few.
                if time.perf_counter() > self._deadline:
                    raise _OutOfTime
                table = self.rank_chances(counts)
                scored: list[tuple[float, int, Board]] = []
                for cell in legal:
                    child = drawn.copy()
                    status = child.place(cell)
                    if status is not _PLAYING:
                        p, e = (1.0, float(child.stock_count)) if status is _WON else (0.0, 0.0)
                        u = weight * p + e
                        if u > best_u:
                            best_u, best_p, best_e = u, p, e
                        continue
                    top[cell] = rank
                    p, e = self.leaf(child, table, changed | 1 << cell, top)
                    top[cell] = tops[cell]
                    scored.append((weight * p + e, cell, child))
                self.leaves += len(scored)
                scored.sort(key=lambda item: (-item[0], item[1]))
                for _, cell, child in scored[: self.deepen_replies]:
                    p, e = self._value(child, counts, depth - 1, changed | 1 << cell)
                    u = weight * p + e
                    if u > best_u:
                        best_u, best_p, best_e = u, p, e
            self.placements += len(legal)
            counts[rank] = k
            sum_p += k * best_p
            sum_e += k * best_e
        return sum_p / total, sum_e / total

    def rank_chances(self, counts: list[int]) -> Sequence[float]:
        """``table[mask]``: the chance that the next card's rank is in ``mask``."""
        key = tuple(counts)
        table = self._tables.get(key)
        if table is None:
            table = self._tables[key] = _rank_chances(key)
        return table

    # ------------------------------------------------------------------ leaf

    def leaf(
        self, board: Board, table: Sequence[float], changed: int, top: Sequence[int]
    ) -> tuple[float, float]:
        """Look one placement ahead analytically and score the outcomes with the model.

        For a cell, a line (its row or its column) is summed up by the ranks that do not
        trigger a flip there and by how the face-down count changes if one does. The best
        outcome for each rank over all legal cells is then weighted by the chance of that rank.
        ``changed`` marks the cells whose top card differs from the root grid's; ``top`` is
        ``board.top_ranks`` (or a list equal to it).
        """
        occupied, up, open_cells, legal, placed = board.bitboards()
        down = occupied & ~up
        rows = self._rows
        cols = self._cols
        outcomes = self._outcomes
        # A line's summaries depend on its piles, which of them are face up, and the ranks of
        # those; only the ``changed`` cells can differ from the root grid's ranks, so the ranks
        # of the changed face-up piles join a line's cache key (4 bits at each cell's place
        # above _RANK_SHIFT; a line takes its own with a mask). Worked out once per leaf, not
        # once per line. A cache holds rows or columns only: a line of one pile is the same key
        # either way, but its table runs along a different axis.
        ranks = 0
        fresh = changed & up
        while fresh:
            low = fresh & -fresh
            fresh ^= low
            at = low.bit_length() - 1
            ranks |= top[at] << 4 * at
        ranks <<= _RANK_SHIFT
        # For each option slot, the ranks for which some legal cell reaches it (``_outcomes_of``),
        # 10 bits a slot. The legal cells are read a window row at a time (a byte of the mask),
        # so that one row's table serves the row; a column's table is kept for the rest of the
        # leaf. A table packs, for each of the line's 7 window cells, the summary of the line's
        # other piles (``_line_table``).
        acc = 0
        col_tables: list[list[int] | None] = [None] * _WINDOW
        r_i = -1
        while legal:
            r_i += 1
            byte = legal & 0xFF
            legal >>= 8
            if not byte:
                continue
            line = occupied & _ROW_MASK[r_i]
            if line:
                key = line | (line & up) << _KEY_SHIFT | ranks & _ROW_RANKS[r_i]
                row_table = rows.get(key) or rows.setdefault(
                    key, _line_table(board, line, up, _ROW_CELLS[r_i], True)
                )
            else:
                row_table = _EMPTY_ROW
            for c_i in _BYTE_COLS[byte]:
                col_table = col_tables[c_i]
                if col_table is None:
                    line = occupied & _COL_MASK[c_i]
                    if line:
                        key = line | (line & up) << _KEY_SHIFT | ranks & _COL_RANKS[c_i]
                        col_table = cols.get(key) or cols.setdefault(
                            key, _line_table(board, line, up, _COL_CELLS[c_i], False)
                        )
                    else:
                        col_table = _EMPTY_COL
                    col_tables[c_i] = col_table
                key = row_table[c_i] | col_table[r_i] << _COL_SHIFT
                found = outcomes.get(key)
                if found is None:
                    found = outcomes[key] = _outcomes_of(key)
                acc |= found
        situation = (
            down.bit_count(),
            (down & ~open_cells).bit_count(),
            occupied.bit_count(),
            placed + 1,
        )
        options = self._options.get(situation)
        if options is None:
            options = self._options[situation] = self._rank_options(*situation)
        # Each rank goes to the best option some cell reaches for it: options come best first.
        uncovered = _ALL_RANKS
        sum_p = sum_e = 0.0
        for shift, p, e in options:
            fresh = acc >> shift & uncovered
            if fresh:
                chance = table[fresh]
                sum_p += chance * p
                sum_e += chance * e
                uncovered ^= fresh
                if not uncovered:
                    break
        return sum_p, sum_e

    def _rank_options(
        self, face_down: int, closed: int, piles: int, placed: int
    ) -> list[tuple[int, float, float]]:
        """Every option slot's ``(shift, p, e)`` from the model, best first, ``shift`` being
        where the slot's ranks are in the leaf's accumulator (``_SLOT_BITS * slot``)."""
        model = self.model
        options: list[tuple[float, int, float, float]] = []
        for slot in range(_SLOTS):
            after = face_down + slot // 2 - _DELTA_OFFSET
            new_piles = piles + 1 - (slot & 1)
            if after < 0 or new_piles > _FULL_GRID:
                continue
            p, e = model.estimate(after, closed, new_piles, placed)
            options.append((model.win_weight * p + e, slot, p, e))
        options.sort(key=lambda option: (-option[0], option[1]))
        return [(_SLOT_BITS * slot, p, e) for _, slot, p, e in options]


# Shared by the searches of a process: the next decision's counts are this one's less a card,
# and a review asks two levels about each position, so most of a search's tables were made
# by the one before (128 tables of 1,024 floats are about 4 MB).
@functools.lru_cache(maxsize=128)
def _rank_chances(counts: tuple[int, ...]) -> tuple[float, ...]:
    """:meth:`Searcher.rank_chances` for the unseen cards' ``counts`` by rank."""
    total = sum(counts)
    weights = [k / total if total else 0.0 for k in counts]
    # table[mask] = table[mask without its lowest bit] + that bit's weight, filled from the
    # highest bit down, a whole stride of masks per bit (the same sums in the same order as
    # one mask at a time, several times faster).
    table = [0.0] * 1024
    for bit in range(9, -1, -1):
        step = 1 << bit
        weight = weights[bit + 1]
        table[step :: 2 * step] = [chance + weight for chance in table[:: 2 * step]]
    return tuple(table)


def _line_table(board: Board, line: int, up: int, cells: Sequence[int], row: bool) -> list[int]:
    """For each of a line's window cells, the :func:`line_summary` of the line's piles other
    than that cell's, packed (see ``_FLIP_AT``); a row's also says what a card placed on the
    cell itself is: a new pile, or a card on a face-up or on a face-down pile."""
    whole = _packed(line_summary(board, line, up))
    table = []
    for cell in cells:
        bit = 1 << cell
        code = _packed(line_summary(board, line & ~bit, up)) if line & bit else whole
        if row:
            slot = _ON_FACE_UP if up & bit else _ON_FACE_DOWN if line & bit else _NEW_PILE
            code |= slot - _FIRST_SLOT << _SLOT_AT
        table.append(code)
    return table


def _packed(summary: tuple[int, int]) -> int:
    safe, flip = summary
    return safe | (flip + _FLIP_BIAS) << _FLIP_AT


def _outcomes_of(key: int) -> int:
    """The leaf's accumulator for one cell, from its row code | its column code << _COL_SHIFT:
    the ranks that flip neither line stay in the cell's own slot; those that flip one line or
    both move by the face-down change of what they flip."""
    safe_row = key & _ALL_RANKS
    flip_row = (key >> _FLIP_AT & 15) - _FLIP_BIAS
    slot = _FIRST_SLOT + (key >> _SLOT_AT & 3)
    col = key >> _COL_SHIFT
    safe_col = col & _ALL_RANKS
    flip_col = (col >> _FLIP_AT & 15) - _FLIP_BIAS
    acc = 0
    for ranks, at in (
        (safe_row & safe_col, slot),
        (safe_row & ~safe_col, slot + 2 * flip_col),
        (safe_col & ~safe_row, slot + 2 * flip_row),
        (_ALL_RANKS & ~(safe_row | safe_col), slot + 2 * (flip_row + flip_col)),
    ):
        acc |= ranks << _SLOT_BITS * at
    return acc


def line_summary(board: Board, others: int, up: int) -> tuple[int, int]:
    """A line's other piles ``others`` (piles of ``board``, whose face-up mask is ``up``) as
    (ranks that flip nothing, change of the face-down count if a placed card does flip them).

    The ranks are the engine's own flip rule (:meth:`Board.quiet_ranks`); if the placed card
    does flip the line, its face-up piles turn down and its face-down ones up.
    """
    return board.quiet_ranks(others), 2 * (others & up).bit_count() - others.bit_count()
