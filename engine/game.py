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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from engine import grid
from engine._bitboard import Bitboard, legal_cells, play_cell
from engine.board import Board
from engine.cards import CARDS, DECK_SIZE, Card, deck_indices, shuffled_indices
from engine.errors import GameOver, InvalidState
from engine.grid import CELL_OF, NEIGHBOURS, ORIGIN, POSITION, Position, cells_of, positions_of
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

_CODE = [card.code for card in CARDS]
_WON = Status.WON  # a module global: cheaper than Status.WON at every placement


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


class Game(Bitboard):
    """One game of Foursquare, from an explicit deck order (``deck[0]`` is drawn first).

    The public surface is small: :attr:`current_card`, :meth:`legal_placements`,
    :meth:`place`, :attr:`status`, :attr:`score` and friends, :meth:`public_view`,
    :meth:`to_dict` / :meth:`from_dict`, and :meth:`board`. It speaks of positions and
    cards, and checks everything it is given.

    Inside, the grid is a handful of bit masks (the engine's private bitboard module), so a
    placement costs a few microseconds. A program that simulates placements by the hundred
    thousand, as the computer player and the solver do, takes :meth:`board`: the same position
    in the engine's own terms (cells, masks, card numbers), behind an interface that checks
    its input as this one does, so that nothing outside the engine can bring a position into a
    state the rules never reach.
    """

    __slots__ = ()

    def __init__(self, deck: Iterable[Card | str]) -> None:
        self._reset(deck_indices(deck))

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> Game:
        """A game dealt by :func:`engine.cards.shuffled_deck`."""
        return cls._dealt(shuffled_indices(seed))

    # ------------------------------------------------------------------ reading

    @property
    def end_reason(self) -> EndReason | None:
        return self._end_reason

    @property
    def score(self) -> int | None:
        """Cards left in the stock when the game was won; ``None`` otherwise."""
        return DECK_SIZE - self._placed if self._status is _WON else None

    @property
    def current_card(self) -> Card | None:
        """The card drawn and waiting to be placed; ``None`` once the game is over."""
        return CARDS[self._deck[self._placed]] if not self.is_over else None

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
        return positions_of(legal_cells(self))

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
        if cell is None or not (type(position[0]) is int and type(position[1]) is int):
            # Outside any grid, or True or 1.0 finding the cell of 1: only ints are coordinates.
            raise self._why_illegal(position)
        before = self._up | 1 << cell  # the placed card lands face up; flips toggle the rest
        # The rules, as a board plays them: an illegal cell raises what this position's
        # placement would (the same error, the same message) and changes nothing.
        status = play_cell(self, cell)
        number = self._placed
        up = self._up
        flips = up ^ before
        return PlacementResult(
            number,
            CARDS[self._deck[number - 1]],
            POSITION[cell],  # type: ignore[arg-type]
            tuple([_FLIPS[c][up >> c & 1] for c in cells_of(flips)]) if flips else (),
            status,
            self._end_reason,
            (self._occupied & ~up).bit_count(),
            DECK_SIZE - number if status is _WON else None,
        )

    def abandon(self) -> None:
        """End a game in progress as lost, ``abandoned`` (the service does, to games left
        untouched too long); a game already over raises :class:`GameOver` and is unchanged."""
        if self.is_over:
            raise GameOver(f"the game is over ({self.status.value}); it cannot be abandoned")
        self._status, self._end_reason = Status.LOST, EndReason.ABANDONED
        self._legal = -1

    def board(self) -> Board:
        """This position as a :class:`~engine.board.Board`, an independent copy for simulating
        placements fast (deck order included: keep it from a player while the game is on).

        >>> game = Game.from_seed(0)
        >>> board = game.board()
        >>> board.place(board.legal_mask().bit_length() - 1), game.placements_count
        (<Status.IN_PROGRESS: 'in_progress'>, 0)
        """
        return self._copy_as(Board)

    @property
    def occupied_mask(self) -> int:
        """The cells holding a pile, as a mask of :mod:`engine.grid` cells.

        Kept only while ``tests/bench/test_player_pairs.py`` reads it (it counts piles, which
        ``len(game.piles)`` does); everything else in engine terms is on :meth:`board`.
        """
        return self._occupied

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
        self._end_turn()  # a loaded grid ends as a played one would

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
