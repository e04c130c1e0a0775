"""The rules' limits and the outcomes they name (RULES.md), shared by every part of the engine.

The rules themselves are applied in one place, the engine's private bitboard module, behind
:class:`engine.Game` and :class:`engine.Board`; this module only names what they decide.

>>> Status("won"), EndReason.TOO_MANY_FACE_DOWN.value
(<Status.WON: 'won'>, 'too_many_face_down')
"""

from __future__ import annotations

from enum import StrEnum

from engine import grid

__all__ = ["FULL_GRID", "MAX_FACE_DOWN", "MAX_PILE_HEIGHT", "EndReason", "Status"]

MAX_PILE_HEIGHT = 4
MAX_FACE_DOWN = 4
FULL_GRID = grid.MAX_SPAN * grid.MAX_SPAN


class Status(StrEnum):
    """Where a game stands."""

    IN_PROGRESS = "in_progress"
    WON = "won"
    LOST = "lost"


class EndReason(StrEnum):
    """Why a game was lost."""

    TOO_MANY_FACE_DOWN = "too_many_face_down"
    STOCK_EXHAUSTED = "stock_exhausted"
    # Not a rule of the game: the service ends a game left untouched for a long time
    # (:meth:`engine.Game.abandon`), so that the game reveals its deck and stops counting as
    # open.
    ABANDONED = "abandoned"
