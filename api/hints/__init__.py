"""Hints: the computer player's advice on a game, computed in worker processes."""

from api.hints.pool import AdvicePool
from api.hints.routes import router
from api.hints.service import HintService

__all__ = ["AdvicePool", "HintService", "router"]
