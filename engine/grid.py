"""Positions and the precomputed tables behind the fast grid.

The first pile is at (0, 0) and the bounding box never exceeds 4 x 4, so every pile lies in
rows and columns -3..3. The engine keeps the grid in a 7 x 7 window stored as bits of an int:
cell ``(row, col)`` is bit ``(row + 3) * 8 + (col + 3)`` (the eighth column of each byte is
padding, so shifting by one never wraps from one row into the next). Sets of cells are then
plain integers, and "the other piles in this row" is one ``&``.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["MAX_SPAN", "WINDOW_RADIUS", "Position"]

MAX_SPAN = 4
WINDOW_RADIUS = MAX_SPAN - 1  # rows and columns -3..3
_WIDTH = 2 * WINDOW_RADIUS + 1  # 7
_STRIDE = 8


class Position(NamedTuple):
    """A pile's place on the table, relative to the first pile at (0, 0).

    Rows grow downward and columns to the right; both may be negative.

    >>> Position(1, -1)
    Position(row=1, col=-1)
    """

    row: int
    col: int

    def __str__(self) -> str:
        return f"({self.row}, {self.col})"

    def neighbours(self) -> tuple[Position, ...]:
        """The four orthogonally adjacent positions: up, down, left, right."""
        r, c = self
        return (Position(r - 1, c), Position(r + 1, c), Position(r, c - 1), Position(r, c + 1))


def cell_of(row: int, col: int) -> int:
    """The bit index of a position inside the window (the caller checks it is inside)."""
    return (row + WINDOW_RADIUS) * _STRIDE + (col + WINDOW_RADIUS)


CELLS: tuple[int, ...] = tuple(
    cell_of(r, c)
    for r in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1)
    for c in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1)
)
ORIGIN = cell_of(0, 0)
N_SLOTS = _WIDTH * _STRIDE  # size of per-cell lists (padding slots stay unused)

# POSITION[cell] is the Position of a cell; CELL_OF maps a Position (or a plain tuple) back.
POSITION: list[Position | None] = [None] * N_SLOTS
CELL_OF: dict[tuple[int, int], int] = {}
for _r in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1):
    for _c in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1):
        _cell = cell_of(_r, _c)
        POSITION[_cell] = Position(_r, _c)
        CELL_OF[(_r, _c)] = _cell

WINDOW_MASK = sum(1 << cell for cell in CELLS)

# NEIGHBOURS[cell]: mask of the up-to-four adjacent cells inside the window.
NEIGHBOURS: list[int] = [0] * N_SLOTS
# LINE_OTHERS[cell]: (mask of the other cells in its row, mask of the other cells in its column).
ROW_OTHERS: list[int] = [0] * N_SLOTS
COL_OTHERS: list[int] = [0] * N_SLOTS
for _cell in CELLS:
    _pos = POSITION[_cell]
    assert _pos is not None
    for _n in _pos.neighbours():
        if _n in CELL_OF:
            NEIGHBOURS[_cell] |= 1 << CELL_OF[_n]
    ROW_OTHERS[_cell] = sum(
        1 << cell_of(_pos.row, c) for c in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1) if c != _pos.col
    )
    COL_OTHERS[_cell] = sum(
        1 << cell_of(r, _pos.col) for r in range(-WINDOW_RADIUS, WINDOW_RADIUS + 1) if r != _pos.row
    )

# BAND[used]: for a 7-bit set of used window rows (or columns), the mask of the window rows
# (or columns) a new pile may use without the span exceeding MAX_SPAN. Rows and columns use
# separate tables because a row band covers whole bytes while a column band picks bits.
ROW_BAND: list[int] = [0] * (1 << _WIDTH)
COL_BAND: list[int] = [0] * (1 << _WIDTH)
for _used in range(1, 1 << _WIDTH):
    _low = (_used & -_used).bit_length() - 1
    _high = _used.bit_length() - 1
    for _i in range(max(0, _high - MAX_SPAN + 1), min(_WIDTH - 1, _low + MAX_SPAN - 1) + 1):
        ROW_BAND[_used] |= 0x7F << (_i * _STRIDE)
        COL_BAND[_used] |= sum(1 << (_r * _STRIDE + _i) for _r in range(_WIDTH))

# Decoding a mask into cells, a byte (one window row) at a time.
BYTE_CELLS: list[list[tuple[int, ...]]] = [
    [tuple(row * _STRIDE + bit for bit in range(_WIDTH) if byte >> bit & 1) for byte in range(256)]
    for row in range(_WIDTH)
]


def cells_of(mask: int) -> list[int]:
    """The cells of a mask in row-then-column order."""
    out: list[int] = []
    row = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(BYTE_CELLS[row][byte])
        mask >>= _STRIDE
        row += 1
    return out


BYTE_POSITIONS: list[list[tuple[Position, ...]]] = [
    [tuple(POSITION[cell] for cell in cells) for cells in row]  # type: ignore[misc]
    for row in BYTE_CELLS
]


def positions_of(mask: int) -> list[Position]:
    """The positions of the cells of a mask, in row-then-column order."""
    out: list[Position] = []
    row = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(BYTE_POSITIONS[row][byte])
        mask >>= _STRIDE
        row += 1
    return out


def row_bit(cell: int) -> int:
    """The bit of the cell's window row in a 7-bit set of rows."""
    return 1 << (cell // _STRIDE)


def col_bit(cell: int) -> int:
    """The bit of the cell's window column in a 7-bit set of columns."""
    return 1 << (cell % _STRIDE)
