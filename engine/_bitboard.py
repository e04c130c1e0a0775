"""The engine's one rule primitive and the state it works on; private to the ``engine`` package.

The rules of a placement are written here and nowhere else: :func:`quiet_ranks` is the flip
rule (RULES.md, steps 3 and 4) for one line, :func:`flipped` applies it to a placement's row
and column, and :func:`play_cell` plays the current card on the bit-mask state and judges the
end of the turn. :class:`engine.Game` (the game the service plays) and :class:`engine.Board`
(the fast interface the computer player simulates on) are both this state with a public
surface on top, so they cannot play differently; the hindsight solver (:mod:`engine.solver`),
which keeps a position in a few integers of its own, calls the same :func:`flipped`.

Why private: the state's fields and :func:`flipped` trust their callers (a mask is taken to be
a set of piles of the grid, a rank to be a rank), because their callers are the engine's own
hot loops, where a check per call would cost the computer player a share of its speed. From
outside they could build a grid the rules never reach: a pile of five, a fifth column. Only the
engine's own modules import this one; what they make public checks its input first, as
:func:`play_cell` does.

:func:`play_cell` and :func:`legal_cells` are functions rather than methods so that
:class:`engine.Board` can take them as its own ``place`` and ``legal_mask`` without a wrapper:
a call less for each of the hundreds of thousands of placements a decision simulates.

Cells, masks and card numbers are those of :mod:`engine.grid` and :mod:`engine.cards`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Self, TypeVar

from engine import grid
from engine.cards import CARDS, DECK_SIZE
from engine.errors import GameOver, GridTooLarge, IllegalPlacement, NotAdjacent, NotOrigin, PileFull
from engine.grid import (
    CELL_OF,
    COL_BAND,
    COL_OTHERS,
    NEIGHBOURS,
    ORIGIN,
    POSITION,
    ROW_BAND,
    ROW_OTHERS,
    Position,
    positions_of,
)
from engine.rules import FULL_GRID, MAX_FACE_DOWN, MAX_PILE_HEIGHT, EndReason, Status

__all__ = ["Bitboard", "flipped", "legal_cells", "play_cell", "quiet_ranks"]

_RANK = [card.rank for card in CARDS]  # rank by card number
_RANK_BIT = [0] + [1 << (rank - 1) for rank in range(1, 11)]  # a set of ranks: bit r - 1
_ALL_RANKS = (1 << 10) - 1

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

# Module globals: cheaper than Status.X in the hot path.
_PLAYING, _WIN, _LOSS = Status.IN_PROGRESS, Status.WON, Status.LOST

B = TypeVar("B", bound="Bitboard")


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
        return 0 if others else _ALL_RANKS
    ranks = 0
    for cell in _LINE_CELLS.get(faced) or grid.cells_of(faced):
        ranks |= _RANK_BIT[tops[cell]]
    return _SPAN[ranks]


def flipped(occupied: int, face_up: int, tops: Sequence[int], cell: int, rank: int) -> int:
    """The piles a card of ``rank`` placed on ``cell`` turns over: the row check and the column
    check, both judged on the grid as it was (the placed pile itself is never turned)."""
    bit = _RANK_BIT[rank]
    row = occupied & ROW_OTHERS[cell]
    flips = row if row and not quiet_ranks(row, face_up, tops) & bit else 0
    col = occupied & COL_OTHERS[cell]
    if col and not quiet_ranks(col, face_up, tops) & bit:
        flips |= col
    return flips


class Bitboard:
    """A position as a handful of bit masks.

    Its public members are reads and :meth:`copy`, which :class:`engine.Game` and
    :class:`engine.Board` share; everything that changes a position is private, and each
    subclass decides what its callers may do with it.
    """

    __slots__ = (
        "_cols_used",
        "_deck",
        "_end_reason",
        "_frontier",
        "_legal",
        "_occupied",
        "_open",
        "_piles",
        "_placed",
        "_rows_used",
        "_status",
        "_top",
        "_up",
    )

    @classmethod
    def _dealt(cls: type[B], deck: list[int]) -> B:
        """A new position of ``cls`` at the start of the deal ``deck`` (card numbers, checked by
        the caller)."""
        board = cls.__new__(cls)
        board._reset(deck)
        return board

    def _reset(self, deck: list[int]) -> None:
        self._deck: list[int] = deck  # card numbers, never mutated (copies share it)
        self._placed = 0
        self._occupied = 0  # cells holding a pile
        self._up = 0  # piles whose top card is face up
        self._open = 0  # piles holding fewer than four cards
        self._frontier = 0  # empty cells next to a pile
        self._rows_used = 0  # 7-bit set of window rows holding a pile
        self._cols_used = 0
        self._piles: list[tuple[int, ...]] = [()] * grid.N_SLOTS
        # The rank of each pile's top card (bytes: a copy is one memcpy, not 56 references).
        self._top = bytearray(grid.N_SLOTS)
        self._status = _PLAYING
        self._end_reason: EndReason | None = None
        self._legal = -1  # cached legal mask; -1 when stale

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> Status:
        return self._status

    @property
    def is_over(self) -> bool:
        return self._status is not _PLAYING

    @property
    def stock_count(self) -> int:
        """Cards still face down in the stock, not counting the current card."""
        left = DECK_SIZE - self._placed
        return left - 1 if self._status is _PLAYING else left

    @property
    def placements_count(self) -> int:
        return self._placed

    @property
    def face_down_count(self) -> int:
        return (self._occupied & ~self._up).bit_count()

    def copy(self) -> Self:
        """An independent copy (cheap: a few ints, a short list and 56 bytes)."""
        cls = type(self)
        other = cls.__new__(cls)
        other._deck = self._deck  # never mutated
        other._placed = self._placed
        other._occupied = self._occupied
        other._up = self._up
        other._open = self._open
        other._frontier = self._frontier
        other._rows_used = self._rows_used
        other._cols_used = self._cols_used
        other._piles = self._piles.copy()
        other._top = self._top.copy()
        other._status = self._status
        other._end_reason = self._end_reason
        other._legal = self._legal
        return other

    # ------------------------------------------------------------------ the rules

    def _end_turn(self) -> Status:
        """Judge the grid as RULES.md's end of turn does, in its order; set and return the
        status (a game loaded from a state is judged the same way)."""
        occupied = self._occupied
        face_down = (occupied & ~self._up).bit_count()
        if face_down > MAX_FACE_DOWN:
            self._status = _LOSS
            self._end_reason = EndReason.TOO_MANY_FACE_DOWN
            return _LOSS
        if face_down == 0 and occupied.bit_count() == FULL_GRID:
            self._status = _WIN
            return _WIN
        if self._placed == DECK_SIZE:
            self._status = _LOSS
            self._end_reason = EndReason.STOCK_EXHAUSTED
            return _LOSS
        return _PLAYING

    def _why_illegal_cell(self, cell: int) -> IllegalPlacement:
        """Why the current card may not go to ``cell`` (which the caller found illegal)."""
        position = POSITION[cell] if 0 <= cell < grid.N_SLOTS else None
        if position is None:
            return IllegalPlacement(f"{cell!r} is not a cell of the grid window")
        return self._why_illegal(position)

    def _why_illegal(self, position: tuple[int, int]) -> IllegalPlacement:
        """Why the current card may not go to ``position`` (which the caller found illegal)."""
        row, col = position
        if not (type(row) is int and type(col) is int):
            raise TypeError(f"a position is two ints, not {position!r}")
        where = f"({row}, {col})"
        if self._status is not _PLAYING:
            return GameOver(f"the game is over ({self._status.value}); {where} cannot be played")
        cell = CELL_OF.get((row, col))
        if cell is not None and self._occupied >> cell & 1:
            return PileFull(f"the pile at {where} already holds {MAX_PILE_HEIGHT} cards")
        if not self._occupied:
            return NotOrigin(f"{where} is not (0, 0): the first card goes at (0, 0)")
        touching = any(
            self._occupied >> n & 1
            for n in (CELL_OF.get(p) for p in Position(row, col).neighbours())
            if n is not None
        )
        if not touching:
            return NotAdjacent(f"{where} is not adjacent to any pile")
        positions = positions_of(self._occupied)
        rows = [p.row for p in positions] + [row]
        cols = [p.col for p in positions] + [col]
        height, width = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
        return GridTooLarge(
            f"a pile at {where} would make the grid {height} rows by {width} columns "
            f"(at most {grid.MAX_SPAN} by {grid.MAX_SPAN})"
        )

    # ------------------------------------------------------------------ comparing

    def _with_deck(self, deck: list[int]) -> Self:
        """A copy with ``deck`` as its deck order (the caller checked that it only reorders the
        cards not yet placed)."""
        other = self.copy()
        other._deck = deck
        return other

    def _copy_as(self, cls: type[B]) -> B:
        """A copy of this position as a ``cls`` (a game's board, say)."""
        other = cls.__new__(cls)
        for name in Bitboard.__slots__:
            setattr(other, name, getattr(self, name))
        other._piles = self._piles.copy()
        other._top = self._top.copy()
        return other

    def _key(self) -> tuple[object, ...]:
        cells = grid.cells_of(self._occupied)
        return (
            tuple(self._deck),
            self._placed,
            self._up,
            self._end_reason is EndReason.ABANDONED,
            tuple((cell, self._piles[cell]) for cell in cells),
        )

    def __eq__(self, other: object) -> bool:
        """The same position of the same deal, as the same kind of object."""
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Bitboard)
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]


def legal_cells(board: Bitboard) -> int:
    """The cells the current card of ``board`` may go to, as a mask (``0`` once the game is
    over), cached until the next placement.

    >>> from engine import Game
    >>> from engine.grid import positions_of
    >>> positions_of(Game.from_seed(1).board().legal_mask())
    [Position(row=0, col=0)]
    """
    legal = board._legal
    if legal < 0:
        if board._status is not _PLAYING:
            legal = 0
        elif not board._occupied:
            legal = 1 << ORIGIN
        else:
            legal = (
                board._frontier & ROW_BAND[board._rows_used] & COL_BAND[board._cols_used]
            ) | board._open
        board._legal = legal
    return legal


def play_cell(board: Bitboard, cell: int) -> Status:
    """Place the current card on ``cell`` and return the new status.

    The engine's one way to play a card: :meth:`engine.Game.place` comes here once it has
    found the cell of a position, and :meth:`engine.Board.place` is this function. An illegal
    cell raises the :class:`~engine.errors.IllegalPlacement` that says why, and changes
    nothing; with the legal cells cached, that check costs two comparisons.

    >>> from engine import Game
    >>> board = Game.from_seed(0).board()
    >>> board.place(board.legal_mask().bit_length() - 1)
    <Status.IN_PROGRESS: 'in_progress'>
    >>> board.place(0)
    Traceback (most recent call last):
    ...
    engine.errors.NotAdjacent: (-3, -3) is not adjacent to any pile
    """
    legal = board._legal
    if legal < 0:
        legal = legal_cells(board)
    if cell < 0 or not legal >> cell & 1:
        raise board._why_illegal_cell(cell)
    card = board._deck[board._placed]
    rank = _RANK[card]
    bit = 1 << cell
    occupied = board._occupied
    if occupied & bit:
        pile = board._piles[cell] + (card,)
        if len(pile) == MAX_PILE_HEIGHT:
            board._open &= ~bit
    else:
        pile = (card,)
        occupied |= bit
        board._occupied = occupied
        board._open |= bit
        board._frontier = (board._frontier | NEIGHBOURS[cell]) & ~occupied
        board._rows_used |= 1 << (cell >> 3)
        board._cols_used |= 1 << (cell & 7)
    board._piles[cell] = pile
    up = board._up
    board._up = (up | bit) ^ flipped(occupied, up, board._top, cell, rank)
    board._top[cell] = rank
    board._placed += 1
    board._legal = -1
    return board._end_turn()
