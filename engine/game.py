"""The game: one mutable object with a small public surface.

>>> game = Game.from_seed(0)
>>> game.current_card, game.legal_placements()
(Card.parse('5C'), [Position(row=0, col=0)])
>>> game.place((0, 0)).status
<Status.IN_PROGRESS: 'in_progress'>
>>> game.stock_count, game.placements_count
(38, 1)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine import grid
from engine._bitboard import flipped
from engine.cards import CARDS, DECK_SIZE, Card, deck_indices, shuffled_indices
from engine.errors import (
    GameOver,
    GridTooLarge,
    IllegalPlacement,
    InvalidDeck,
    InvalidState,
    NotAdjacent,
    PileFull,
)
from engine.grid import (
    CELL_OF,
    COL_BAND,
    NEIGHBOURS,
    ORIGIN,
    POSITION,
    ROW_BAND,
    Position,
    cells_of,
    positions_of,
)
from engine.rules import FULL_GRID, MAX_FACE_DOWN, MAX_PILE_HEIGHT, EndReason, Status

__all__ = [
    "FULL_GRID",
    "MAX_FACE_DOWN",
    "MAX_PILE_HEIGHT",
    "EndReason",
    "Flip",
    "Game",
    "Pile",
    "PlacementResult",
    "PublicView",
    "Status",
    "replay",
]

STATE_FORMAT = 1

_RANK = [card.rank for card in CARDS]  # rank by card index, for the hot path
_CODE = [card.code for card in CARDS]

# Internal status codes (small ints in the hot path).
_IN_PROGRESS, _WON, _LOST = 0, 1, 2


_STATUS = (Status.IN_PROGRESS, Status.WON, Status.LOST)
_PLAYING, _WIN, _LOSS = _STATUS  # module globals: cheaper than Status.X in the hot path


class Flip(NamedTuple):
    """A pile whose top card was turned over, and the side it now shows."""

    position: Position
    face_up: bool


# _FLIPS[cell][face_up]: the two possible flips of a cell, built once and shared.
_FLIPS: list[tuple[Flip, Flip]] = [
    (Flip(pos, False), Flip(pos, True)) if pos is not None else (None, None)  # type: ignore[misc]
    for pos in POSITION
]


class Pile(NamedTuple):
    """A pile on the grid: its cards from bottom to top and whether the top is face up."""

    position: Position
    cards: tuple[Card, ...]
    face_up: bool

    @property
    def top(self) -> Card:
        """The top card, the only one the rules look at."""
        return self.cards[-1]


class PlacementResult(NamedTuple):
    """What one placement did."""

    number: int  # 1 for the first placement of the game
    card: Card
    position: Position
    flipped: tuple[Flip, ...]  # sorted by row, then column
    status: Status
    end_reason: EndReason | None
    face_down_count: int
    score: int | None


@dataclass(frozen=True, slots=True)
class PublicView:
    """Everything a player may know: the whole game except the order of the stock."""

    status: Status
    end_reason: EndReason | None
    score: int | None
    current_card: Card | None
    stock_count: int
    face_down_count: int
    placements_count: int
    piles: tuple[Pile, ...]
    legal_placements: tuple[Position, ...]

    def unseen_cards(self) -> list[Card]:
        """The cards still in the stock, in card order (their order is the secret)."""
        seen = {card for pile in self.piles for card in pile.cards}
        if self.current_card is not None:
            seen.add(self.current_card)
        return [card for card in CARDS if card not in seen]


class Game:
    """One game of Foursquare, from an explicit deck order (``deck[0]`` is drawn first).

    The public surface is small: :attr:`current_card`, :meth:`legal_placements`,
    :meth:`place`, :attr:`status`, :attr:`score` and friends, :meth:`public_view`,
    :meth:`to_dict` / :meth:`from_dict`. Internally the grid is a handful of bit masks
    (see :mod:`engine.grid`) so that a placement costs a few microseconds; the "fast path"
    members (:meth:`legal_mask`, :meth:`place_cell`, :attr:`occupied_mask` and the other
    masks, :attr:`top_ranks`, :meth:`pile_height`, :meth:`redeal`, :meth:`with_next_card`)
    expose that representation to the computer player, which simulates placements by the
    hundred thousand. Every member keeps the game one the rules can reach: placements are
    checked and the state is read-only from outside.
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

    def __init__(self, deck: Iterable[Card | str]) -> None:
        self._reset(deck_indices(deck))

    def _reset(self, deck: list[int]) -> None:
        self._deck: list[int] = deck
        self._placed = 0
        self._occupied = 0  # cells holding a pile
        self._up = 0  # piles whose top card is face up
        self._open = 0  # piles holding fewer than four cards
        self._frontier = 0  # empty cells next to a pile
        self._rows_used = 0  # 7-bit set of window rows holding a pile
        self._cols_used = 0
        self._piles: list[tuple[int, ...]] = [()] * grid.N_SLOTS
        self._top: list[int] = [0] * grid.N_SLOTS  # rank of each pile's top card
        self._status = _IN_PROGRESS
        self._end_reason: EndReason | None = None
        self._legal = -1  # cached legal mask; -1 when stale

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> Game:
        """A game dealt by :func:`engine.cards.shuffled_deck`."""
        game = cls.__new__(cls)
        game._reset(shuffled_indices(seed))
        return game

    # ------------------------------------------------------------------ reading

    @property
    def status(self) -> Status:
        return _STATUS[self._status]

    @property
    def end_reason(self) -> EndReason | None:
        return self._end_reason

    @property
    def is_over(self) -> bool:
        return self._status != _IN_PROGRESS

    @property
    def score(self) -> int | None:
        """Cards left in the stock when the game was won; ``None`` otherwise."""
        return DECK_SIZE - self._placed if self._status == _WON else None

    @property
    def current_card(self) -> Card | None:
        """The card drawn and waiting to be placed; ``None`` once the game is over."""
        return CARDS[self._deck[self._placed]] if self._status == _IN_PROGRESS else None

    @property
    def stock_count(self) -> int:
        """Cards still face down in the stock, not counting the current card."""
        left = DECK_SIZE - self._placed
        return left - 1 if self._status == _IN_PROGRESS else left

    @property
    def placements_count(self) -> int:
        return self._placed

    @property
    def face_down_count(self) -> int:
        return (self._occupied & ~self._up).bit_count()

    @property
    def deck(self) -> tuple[Card, ...]:
        """The whole deck order. Secret while the game is in progress: never show it."""
        return tuple(CARDS[i] for i in self._deck)

    @property
    def piles(self) -> tuple[Pile, ...]:
        """The piles, sorted by row then column."""
        up = self._up
        return tuple(
            Pile(
                position=POSITION[cell],  # type: ignore[arg-type]
                cards=tuple(CARDS[i] for i in self._piles[cell]),
                face_up=bool(up >> cell & 1),
            )
            for cell in cells_of(self._occupied)
        )

    def legal_placements(self) -> list[Position]:
        """Every position the current card may go, sorted by row then column.

        >>> Game.from_seed(1).legal_placements()
        [Position(row=0, col=0)]
        """
        return positions_of(self.legal_mask())

    def public_view(self) -> PublicView:
        """The state as the player sees it: everything but the order of the stock."""
        return PublicView(
            status=self.status,
            end_reason=self._end_reason,
            score=self.score,
            current_card=self.current_card,
            stock_count=self.stock_count,
            face_down_count=self.face_down_count,
            placements_count=self._placed,
            piles=self.piles,
            legal_placements=tuple(self.legal_placements()),
        )

    # ------------------------------------------------------------------ playing

    def place(self, position: tuple[int, int]) -> PlacementResult:
        """Place the current card at ``position``; raise :class:`IllegalPlacement` if the rules
        forbid it, in which case nothing changes.

        >>> game = Game.from_seed(0)
        >>> game.place((0, 0)).position
        Position(row=0, col=0)
        >>> game.place((2, 0))
        Traceback (most recent call last):
        ...
        engine.errors.NotAdjacent: (2, 0) is not adjacent to any pile
        """
        cell = CELL_OF.get(position)
        if cell is not None and not (type(position[0]) is int and type(position[1]) is int):
            cell = None  # True or 1.0 would find the cell of 1: only ints are coordinates
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if cell is None or not legal >> cell & 1:
            raise self._why_illegal(position)
        number = self._placed + 1
        card = CARDS[self._deck[self._placed]]
        before = self._up | 1 << cell  # the placed card lands face up; flips toggle the rest
        status = self.place_cell(cell)
        up = self._up
        flips = up ^ before
        return PlacementResult(
            number,
            card,
            POSITION[cell],  # type: ignore[arg-type]
            tuple([_FLIPS[c][up >> c & 1] for c in cells_of(flips)]) if flips else (),
            status,
            self._end_reason,
            (self._occupied & ~up).bit_count(),
            DECK_SIZE - number if status is _WIN else None,
        )

    def abandon(self) -> None:
        """End a game in progress as lost, ``abandoned`` (the service does, to games left
        untouched too long); a game already over raises :class:`GameOver` and is unchanged."""
        if self._status != _IN_PROGRESS:
            raise GameOver(f"the game is over ({self.status.value}); it cannot be abandoned")
        self._status, self._end_reason = _LOST, EndReason.ABANDONED
        self._legal = -1

    def copy(self) -> Game:
        """An independent copy (cheap: a few ints and two short lists)."""
        other = Game.__new__(Game)
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

    # ------------------------------------------------------------------ fast path
    #
    # A computer player simulates hundreds of thousands of placements per decision, where
    # Position objects, PlacementResult tuples and Card lookups would cost more than the rules.
    # These members give it the same game in the engine's own terms: cells are bit indices of
    # the 7 x 7 window of :mod:`engine.grid` (``engine.grid.POSITION`` / ``CELL_OF`` convert),
    # sets of cells are int bit masks, and cards are card numbers (:attr:`Card.index`). Each is
    # checked or read-only, so a caller cannot bring a game into a state the rules never reach.

    def legal_mask(self) -> int:
        """The cells the current card may go to, as a mask (``0`` once the game is over).

        The fast counterpart of :meth:`legal_placements`: the same cells, cached until the
        next placement.

        >>> from engine.grid import positions_of
        >>> positions_of(Game.from_seed(1).legal_mask())
        [Position(row=0, col=0)]
        """
        legal = self._legal
        if legal < 0:
            if self._status != _IN_PROGRESS:
                legal = 0
            elif not self._occupied:
                legal = 1 << ORIGIN
            else:
                legal = (
                    self._frontier & ROW_BAND[self._rows_used] & COL_BAND[self._cols_used]
                ) | self._open
            self._legal = legal
        return legal

    def place_cell(self, cell: int) -> Status:
        """Place the current card on ``cell`` and return the new status.

        The fast counterpart of :meth:`place`: the same rules and the same checks (an illegal
        cell raises :class:`IllegalPlacement` and changes nothing; with the legal cells cached
        the check costs two comparisons), without building a :class:`PlacementResult`.

        >>> game = Game.from_seed(0)
        >>> game.place_cell(game.legal_mask().bit_length() - 1)
        <Status.IN_PROGRESS: 'in_progress'>
        >>> game.place_cell(0)
        Traceback (most recent call last):
        ...
        engine.errors.NotAdjacent: (-3, -3) is not adjacent to any pile
        """
        legal = self._legal
        if legal < 0:
            legal = self.legal_mask()
        if cell < 0 or not legal >> cell & 1:
            raise self._why_illegal_cell(cell)
        card = self._deck[self._placed]
        rank = _RANK[card]
        bit = 1 << cell
        occupied = self._occupied
        top = self._top
        if occupied & bit:
            pile = self._piles[cell] + (card,)
            if len(pile) == MAX_PILE_HEIGHT:
                self._open &= ~bit
        else:
            pile = (card,)
            occupied |= bit
            self._occupied = occupied
            self._open |= bit
            self._frontier = (self._frontier | NEIGHBOURS[cell]) & ~occupied
            self._rows_used |= 1 << (cell >> 3)
            self._cols_used |= 1 << (cell & 7)
        self._piles[cell] = pile
        # Row and column checks, both judged on the grid before either flip (engine._bitboard).
        up = (self._up | bit) ^ flipped(occupied, self._up, top, cell, rank)
        top[cell] = rank
        self._up = up
        self._placed += 1
        self._legal = -1

        face_down = (occupied & ~up).bit_count()
        if face_down > MAX_FACE_DOWN:
            self._status = _LOST
            self._end_reason = EndReason.TOO_MANY_FACE_DOWN
            return _LOSS
        if face_down == 0 and occupied.bit_count() == FULL_GRID:
            self._status = _WON
            return _WIN
        if self._placed == DECK_SIZE:
            self._status = _LOST
            self._end_reason = EndReason.STOCK_EXHAUSTED
            return _LOSS
        return _PLAYING

    def bitboards(self) -> tuple[int, int, int, int, int]:
        """``(occupied, face_up, open, legal, placed)``: the masks of :attr:`occupied_mask`,
        :attr:`face_up_mask`, :attr:`open_mask` and :meth:`legal_mask`, and
        :attr:`placements_count`, in one call.

        Why it exists: a search reads all of them at every position it scores, and on Python
        3.11 one method call costs a fraction of five property reads.
        """
        return self._occupied, self._up, self._open, self.legal_mask(), self._placed

    @property
    def occupied_mask(self) -> int:
        """The cells holding a pile."""
        return self._occupied

    @property
    def face_up_mask(self) -> int:
        """The cells whose pile shows its top card (a subset of :attr:`occupied_mask`)."""
        return self._up

    @property
    def open_mask(self) -> int:
        """The cells whose pile holds fewer than :data:`MAX_PILE_HEIGHT` cards."""
        return self._open

    @property
    def top_ranks(self) -> tuple[int, ...]:
        """The rank of each pile's top card, indexed by cell (``0`` where there is no pile).

        The rules compare nothing but these ranks (face-down tops included, since they can
        turn up again). A snapshot: it does not follow later placements.
        """
        return tuple(self._top)

    def pile_height(self, cell: int) -> int:
        """How many cards the pile on ``cell`` holds (``0`` for an empty cell)."""
        return len(self._piles[cell])

    def redeal(self, unseen: Sequence[int]) -> Game:
        """A copy whose unseen cards, the current card then the stock, come in the order
        ``unseen`` (card numbers); this game is left as it is.

        Why it exists: a player who cannot see the stock plays out possible futures on copies
        whose stock is one guess at its order (a determinisation). ``unseen`` must hold exactly
        the cards not yet placed, so the copy is a game the rules could have dealt; anything
        else raises :class:`InvalidDeck`.

        >>> game = Game.from_seed(0)
        >>> unseen = [card.index for card in game.deck]
        >>> game.redeal(unseen[::-1]).current_card == game.deck[-1]
        True
        """
        placed = self._placed
        order = [operator.index(card) for card in unseen]
        if sorted(order) != sorted(self._deck[placed:]):
            raise InvalidDeck(
                f"a redeal orders the {DECK_SIZE - placed} unseen cards, and only those"
            )
        other = self.copy()
        other._deck = self._deck[:placed] + order
        return other

    def with_next_card(self, card: int) -> Game:
        """A copy in which the unseen card ``card`` (a card number) is the current card, the
        other unseen cards keeping their order; this game is left as it is.

        The cheap special case of :meth:`redeal` for a search that asks "what if the next
        card were this one?". Raises :class:`InvalidDeck` if ``card`` is already placed.

        >>> game = Game.from_seed(0)
        >>> game.with_next_card(Card.parse("10H").index).current_card
        Card.parse('10H')
        """
        deck = self._deck
        placed = self._placed
        try:
            at = deck.index(card, placed)
        except ValueError:
            raise InvalidDeck(f"card number {card!r} is not an unseen card") from None
        order = deck.copy()  # a copy's deck is shared with its original, so never edit it
        order.insert(placed, order.pop(at))  # the deck's own int, even if card was 1.0
        other = self.copy()
        other._deck = order
        return other

    def _why_illegal_cell(self, cell: int) -> IllegalPlacement:
        position = POSITION[cell] if 0 <= cell < grid.N_SLOTS else None
        if position is None:
            return IllegalPlacement(f"{cell!r} is not a cell of the grid window")
        return self._why_illegal(position)

    def _why_illegal(self, position: tuple[int, int]) -> IllegalPlacement:
        row, col = position
        if not (type(row) is int and type(col) is int):
            raise TypeError(f"a position is two ints, not {position!r}")
        where = f"({row}, {col})"
        if self._status != _IN_PROGRESS:
            return GameOver(f"the game is over ({self.status.value}); {where} cannot be played")
        cell = CELL_OF.get((row, col))
        if cell is not None and self._occupied >> cell & 1:
            return PileFull(f"the pile at {where} already holds {MAX_PILE_HEIGHT} cards")
        if not self._occupied:
            return NotAdjacent(f"{where} is not (0, 0): the first card goes at (0, 0)")
        touching = any(
            self._occupied >> n & 1
            for n in (CELL_OF.get(p) for p in Position(row, col).neighbours())
            if n is not None
        )
        if not touching:
            return NotAdjacent(f"{where} is not adjacent to any pile")
        rows = [p.row for p in self._positions()] + [row]
        cols = [p.col for p in self._positions()] + [col]
        height, width = max(rows) - min(rows) + 1, max(cols) - min(cols) + 1
        return GridTooLarge(
            f"a pile at {where} would make the grid {height} rows by {width} columns "
            f"(at most {grid.MAX_SPAN} by {grid.MAX_SPAN})"
        )

    def _positions(self) -> list[Position]:
        return positions_of(self._occupied)

    # ------------------------------------------------------------------ serialising

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-able data, the secret deck order included.

        ``{"format": 1, "deck": [codes], "placed": n, "piles": [{"row", "col", "cards",
        "face_up"}]}``, plus ``"abandoned": true`` for an abandoned game (the one ending that
        does not follow from the grid); status, score and the rest follow from these.
        """
        up = self._up
        state: dict[str, Any] = {
            "format": STATE_FORMAT,
            "deck": [_CODE[i] for i in self._deck],
            "placed": self._placed,
            "piles": [
                {
                    "row": POSITION[cell].row,  # type: ignore[union-attr]
                    "col": POSITION[cell].col,  # type: ignore[union-attr]
                    "cards": [_CODE[i] for i in self._piles[cell]],
                    "face_up": up >> cell & 1 == 1,
                }
                for cell in cells_of(self._occupied)
            ],
        }
        if self._end_reason is EndReason.ABANDONED:
            state["abandoned"] = True
        return state

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """Rebuild a game from :meth:`to_dict` data, checking that it obeys the rules."""
        if not isinstance(data, Mapping):
            raise InvalidState(f"a state is a mapping, not {type(data).__name__}")
        try:
            if data.get("format") != STATE_FORMAT:
                raise InvalidState(f"unknown state format {data.get('format')!r}")
            game = cls(data["deck"])
            placed = data["placed"]
            piles = [
                (Position(p["row"], p["col"]), [Card.parse(c) for c in p["cards"]], p["face_up"])
                for p in data["piles"]
            ]
            abandoned = data.get("abandoned", False)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, InvalidState):
                raise
            raise InvalidState(f"malformed state: {exc}") from exc
        if type(abandoned) is not bool:
            raise InvalidState(f"abandoned must be true or false, not {abandoned!r}")
        game._load(placed, piles)
        if abandoned:
            if game.is_over:
                raise InvalidState(f"a game that ended {game.status.value} cannot be abandoned")
            game.abandon()
        return game

    def _load(
        self, placed: object, piles: Sequence[tuple[Position, Sequence[Card], object]]
    ) -> None:
        if not isinstance(placed, int) or isinstance(placed, bool) or not 0 <= placed <= DECK_SIZE:
            raise InvalidState(f"placed must be 0..{DECK_SIZE}, not {placed!r}")
        on_grid: list[int] = []
        for position, cards, face_up in piles:
            where = f"({position.row!r}, {position.col!r})"
            if not all(type(coordinate) is int for coordinate in position):
                raise InvalidState(f"pile {where} must have integer row and col")
            cell = CELL_OF.get(position)
            if cell is None:
                raise InvalidState(f"pile {where} lies outside any 4 x 4 grid around (0, 0)")
            if self._occupied >> cell & 1:
                raise InvalidState(f"two piles at {where}")
            if not 1 <= len(cards) <= MAX_PILE_HEIGHT or not isinstance(face_up, bool):
                raise InvalidState(f"pile {where} must hold 1 to 4 cards and a face_up flag")
            bit = 1 << cell
            self._occupied |= bit
            self._up |= bit if face_up else 0
            self._open |= bit if len(cards) < MAX_PILE_HEIGHT else 0
            self._rows_used |= 1 << (cell >> 3)
            self._cols_used |= 1 << (cell & 7)
            self._piles[cell] = tuple(card.index for card in cards)
            self._top[cell] = cards[-1].rank
            on_grid.extend(self._piles[cell])
        if sorted(on_grid) != sorted(self._deck[:placed]):
            raise InvalidState(f"the piles must hold exactly the first {placed} cards of the deck")
        if placed and not self._occupied >> ORIGIN & 1:
            raise InvalidState("there is no pile at (0, 0)")
        for used in (self._rows_used, self._cols_used):
            if used and used.bit_length() - (used & -used).bit_length() >= grid.MAX_SPAN:
                raise InvalidState("the grid is more than 4 rows or 4 columns wide")
        reached, todo = 0, (1 << ORIGIN) & self._occupied
        while todo:
            reached |= todo
            touched = 0
            for c in cells_of(todo):
                touched |= NEIGHBOURS[c]  # "|", not "+": neighbour masks overlap
            todo = touched & self._occupied & ~reached
        if reached != self._occupied:
            raise InvalidState("every pile must be connected to the pile at (0, 0)")
        for cell in cells_of(self._occupied):
            self._frontier |= NEIGHBOURS[cell]
        self._frontier &= ~self._occupied
        self._placed = placed
        face_down = self.face_down_count
        if face_down > MAX_FACE_DOWN:
            self._status, self._end_reason = _LOST, EndReason.TOO_MANY_FACE_DOWN
        elif face_down == 0 and self._occupied.bit_count() == FULL_GRID:
            self._status = _WON
        elif placed == DECK_SIZE:
            self._status, self._end_reason = _LOST, EndReason.STOCK_EXHAUSTED

    @classmethod
    def from_view(cls, view: PublicView, stock: Sequence[Card]) -> Game:
        """A game with the grid of ``view`` whose stock is ``stock`` (top first).

        The order of the cards already played is not public and does not matter for what
        follows, so they are put in the deck pile by pile. Used to simulate possible futures.
        """
        played = [card for pile in view.piles for card in pile.cards]
        head = [view.current_card] if view.current_card is not None else []
        game = cls([*played, *head, *stock])
        game._load(len(played), [(p.position, p.cards, p.face_up) for p in view.piles])
        return game

    # ------------------------------------------------------------------ comparing

    def _key(self) -> tuple[object, ...]:
        cells = cells_of(self._occupied)
        return (
            tuple(self._deck),
            self._placed,
            self._up,
            self._end_reason is EndReason.ABANDONED,
            tuple((cell, self._piles[cell]) for cell in cells),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self.status.value} placed={self._placed} "
            f"face_down={self.face_down_count} current={self.current_card}>"
        )


def replay(deck: Iterable[Card | str], positions: Iterable[tuple[int, int]]) -> Game:
    """Rebuild a game from its deck order and its placements, validating each one.

    >>> replay(Game.from_seed(0).deck, [(0, 0), (0, 1)]).placements_count
    2
    """
    game = Game(deck)
    for position in positions:
        game.place(position)
    return game
