"""The Foursquare rules engine (standard library only).

>>> from engine import Game
>>> game = Game.from_seed(7)
>>> result = game.place(game.legal_placements()[0])
>>> result.number, result.status.value
(1, 'in_progress')
"""

from engine.board import Board
from engine.cards import CARDS, DECK_SIZE, Card, Suit, full_deck, parse_deck, shuffled_deck
from engine.errors import (
    EngineError,
    GameOver,
    GridTooLarge,
    IllegalPlacement,
    InvalidCard,
    InvalidDeck,
    InvalidState,
    NotAdjacent,
    NotOrigin,
    PileFull,
)
from engine.game import (
    MAX_FACE_DOWN,
    MAX_PILE_HEIGHT,
    EndReason,
    Flip,
    Game,
    Pile,
    PlacementResult,
    PublicView,
    Status,
    replay,
)
from engine.grid import Position
from engine.solver import Optimum, solve, solve_from

__all__ = [
    "CARDS",
    "DECK_SIZE",
    "MAX_FACE_DOWN",
    "MAX_PILE_HEIGHT",
    "Board",
    "Card",
    "EndReason",
    "EngineError",
    "Flip",
    "Game",
    "GameOver",
    "GridTooLarge",
    "IllegalPlacement",
    "InvalidCard",
    "InvalidDeck",
    "InvalidState",
    "NotAdjacent",
    "NotOrigin",
    "Optimum",
    "Pile",
    "PileFull",
    "PlacementResult",
    "Position",
    "PublicView",
    "Status",
    "Suit",
    "full_deck",
    "parse_deck",
    "replay",
    "shuffled_deck",
    "solve",
    "solve_from",
]
