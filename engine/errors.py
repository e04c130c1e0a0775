"""The engine's errors: one base class, one subclass per cause, each with a machine code."""

from __future__ import annotations

__all__ = [
    "EngineError",
    "GameOver",
    "GridTooLarge",
    "IllegalPlacement",
    "InvalidCard",
    "InvalidDeck",
    "InvalidState",
    "NotAdjacent",
    "NotOrigin",
    "PileFull",
]


class EngineError(ValueError):
    """Base of every error the engine raises. ``code`` is stable and machine-readable."""

    code = "engine_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidCard(EngineError):
    """A card code or rank that names no card."""

    code = "invalid_card"


class InvalidDeck(EngineError):
    """A deck that is not the 40 distinct cards."""

    code = "invalid_deck"


class InvalidState(EngineError):
    """A serialised state that breaks the rules (lost cards, a pile of five, a 5-wide grid...)."""

    code = "invalid_state"


class IllegalPlacement(EngineError):
    """A placement the rules forbid. The game is left exactly as it was."""

    code = "illegal_placement"


class NotAdjacent(IllegalPlacement):
    """A new pile must touch an existing pile orthogonally (the first card goes at (0, 0))."""

    code = "not_adjacent"


class NotOrigin(NotAdjacent):
    """The first card goes at (0, 0): with no pile yet, there is nothing to be adjacent to, so
    it has a code of its own (``not_adjacent`` said a newcomer's first card touched no pile).
    A ``NotAdjacent`` still, for code that catches that."""

    code = "not_origin"


class GridTooLarge(IllegalPlacement):
    """The new pile would make the grid's bounding box wider or taller than four."""

    code = "grid_too_large"


class PileFull(IllegalPlacement):
    """The pile already holds four cards."""

    code = "pile_full"


class GameOver(IllegalPlacement):
    """The game has ended; no more cards can be placed."""

    code = "game_over"
