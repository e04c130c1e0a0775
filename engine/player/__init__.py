"""A computer player for Foursquare that sees only what the player sees.

:func:`advise` takes a :class:`~engine.PublicView` (never a game, so it cannot peek at the
stock) and returns the recommended placement with an estimate of the win probability and the
expected score of every legal placement. :mod:`engine.player.simulate` plays many deals with a
policy and reports its strength.

>>> from engine import Game
>>> from engine.player import advise
>>> game = Game.from_seed(0)
>>> game.place(advise(game.public_view()).placement).position
Position(row=0, col=0)
"""

from engine.player.advice import (
    DEFAULT_BUDGETS,
    DEFAULT_PLACEMENTS,
    WIN_WEIGHT,
    Advice,
    Budget,
    Estimate,
    Policy,
    advise,
    choose,
)

__all__ = [
    "DEFAULT_BUDGETS",
    "DEFAULT_PLACEMENTS",
    "WIN_WEIGHT",
    "Advice",
    "Budget",
    "Estimate",
    "Policy",
    "advise",
    "choose",
]
