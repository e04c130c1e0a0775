"""A game's position in the engine's own terms: the one public door to the fast path.

The computer player (:mod:`engine.player`) plays hundreds of thousands of hypothetical
placements per decision, where :class:`~engine.grid.Position` objects, :class:`PlacementResult`
tuples and :class:`~engine.cards.Card` lookups would cost more than the rules themselves. A
:class:`Board` gives it the same position in the terms the engine keeps it in: cells are bit
indices of the 7 x 7 window of :mod:`engine.grid` (``engine.grid.POSITION`` and ``CELL_OF``
convert), sets of cells are int masks, and cards are card numbers (:attr:`Card.index`).

Why a class of its own rather than more methods on :class:`~engine.Game`: the game the service
plays keeps its small surface of positions and cards, and what a simulation needs lives in one
place. As with python-chess's ``Board``, the speed comes from a private layer, the engine's
bitboard module: the position as bit masks, and rule functions that take raw masks and trust
their callers (the engine's own hot loops, the solver's among them). Nothing here trusts its
caller: every method checks its input, at the price of a comparison or two, so a board cannot
be brought into a state the rules never reach. A board comes from :meth:`engine.Game.board`.

>>> from engine import Game
>>> board = Game.from_seed(0).board()
>>> board.place(board.legal_mask().bit_length() - 1)
<Status.IN_PROGRESS: 'in_progress'>
>>> board.place(0)
Traceback (most recent call last):
...
engine.errors.NotAdjacent: (-3, -3) is not adjacent to any pile
"""

from __future__ import annotations

import operator
from collections.abc import Sequence

from engine import grid
from engine._bitboard import Bitboard, legal_cells, play_cell, quiet_ranks
from engine.cards import CARDS, DECK_SIZE
from engine.errors import InvalidDeck

__all__ = ["Board"]


class Board(Bitboard):
    """One position of a deal, to simulate placements on: a copy, never the game itself.

    :meth:`place` plays the current card on a cell, checked as :meth:`engine.Game.place` checks
    a position; :meth:`legal_mask` is the set of cells it accepts. Reads (:attr:`status`,
    :attr:`is_over`, :attr:`stock_count`, :attr:`placements_count`, :attr:`face_down_count`)
    and :meth:`copy` are those of :class:`~engine.Game`. The board knows its deck
    order, as the game does; a player simulating possible futures builds its boards from the
    public view (:meth:`engine.Game.from_view`) or deals them again (:meth:`redeal`).
    """

    __slots__ = ()

    # The engine's own functions, not wrappers around them: a call less for every placement a
    # search simulates. Each checks what it is given (see their docstrings).
    legal_mask = legal_cells
    place = play_cell

    def bitboards(self) -> tuple[int, int, int, int, int]:
        """``(occupied, face_up, open, legal, placed)``: the cells holding a pile, those whose
        top card is face up, those holding fewer than four cards, :meth:`legal_mask`, and
        :attr:`placements_count`.

        Why in one call: a search reads all of them at every position it scores, and on
        Python 3.11 one method call costs a fraction of five property reads.
        """
        return self._occupied, self._up, self._open, legal_cells(self), self._placed

    @property
    def top_ranks(self) -> tuple[int, ...]:
        """The rank of each pile's top card, indexed by cell (``0`` where there is no pile).

        The rules compare nothing but these ranks (face-down tops included, since they can
        turn up again). A snapshot: it does not follow later placements.
        """
        return tuple(self._top)

    def pile_height(self, cell: int) -> int:
        """How many cards the pile on ``cell`` holds (``0`` for an empty cell); a cell outside
        the window raises :class:`IndexError`."""
        if not 0 <= cell < grid.N_SLOTS:
            raise IndexError(f"{cell!r} is not a cell of the grid window")
        return len(self._piles[cell])

    def quiet_ranks(self, cells: int) -> int:
        """The ranks a card placed in a line whose other piles are the piles among ``cells``
        may have without turning any of them over, as a set (bit ``r - 1`` for rank ``r``).

        This is the engine's flip rule itself (the placed card flips its row's other piles
        unless its rank lies between their lowest and highest face-up tops, both included),
        for a search that asks about every rank at once. Cells without a pile are no part of
        the line, so any mask is a question with an answer.

        >>> from engine import Game
        >>> board = Game.from_seed(0).board()
        >>> board.place(board.legal_mask().bit_length() - 1)  # the 5C at (0, 0)
        <Status.IN_PROGRESS: 'in_progress'>
        >>> f"{board.quiet_ranks(board.bitboards()[0]):010b}"  # the 5 alone: only a 5 is quiet
        '0000010000'
        """
        return quiet_ranks(cells & self._occupied, self._up, self._top)

    def unseen(self) -> list[int]:
        """The card numbers not yet placed, the current card first, in the order this board
        deals them (what :meth:`redeal` reorders)."""
        return self._deck[self._placed :]

    def redeal(self, unseen: Sequence[int]) -> Board:
        """A copy whose unseen cards, the current card then the stock, come in the order
        ``unseen`` (card numbers); this board is left as it is.

        Why it exists: a player who cannot see the stock plays out possible futures on copies
        whose stock is one guess at its order (a determinisation). ``unseen`` must hold exactly
        the cards not yet placed, so the copy is a deal the rules could have dealt; anything
        else raises :class:`~engine.errors.InvalidDeck`.

        >>> from engine import Game
        >>> board = Game.from_seed(0).board()
        >>> board.redeal(board.unseen()[::-1]).unseen()[0] == board.unseen()[-1]
        True
        """
        placed = self._placed
        order = [operator.index(card) for card in unseen]
        if sorted(order) != sorted(self._deck[placed:]):
            raise InvalidDeck(
                f"a redeal orders the {DECK_SIZE - placed} unseen cards, and only those"
            )
        return self._with_deck(self._deck[:placed] + order)

    def with_next_card(self, card: int) -> Board:
        """A copy in which the unseen card ``card`` (a card number) is the current card, the
        other unseen cards keeping their order; this board is left as it is.

        The cheap special case of :meth:`redeal` for a search that asks "what if the next
        card were this one?". Raises :class:`~engine.errors.InvalidDeck` if ``card`` is already
        placed.

        >>> from engine import Card, Game
        >>> board = Game.from_seed(0).board().with_next_card(Card.parse("10H").index)
        >>> board.unseen()[0] == Card.parse("10H").index
        True
        """
        deck = self._deck
        placed = self._placed
        try:
            at = deck.index(card, placed)
        except ValueError:
            raise InvalidDeck(f"card number {card!r} is not an unseen card") from None
        order = deck.copy()  # a copy's deck is shared with its original, so never edit it
        order.insert(placed, order.pop(at))  # the deck's own int, even if card was 1.0
        return self._with_deck(order)

    def __repr__(self) -> str:
        current = CARDS[self._deck[self._placed]] if not self.is_over else None
        return (
            f"<Board {self.status.value} placed={self._placed} "
            f"face_down={self.face_down_count} current={current}>"
        )
