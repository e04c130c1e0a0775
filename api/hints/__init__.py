"""Hints: the computer player's advice on a game, computed in worker processes."""

from api.hints.pool import AdvicePool
from api.hints.routes import router
from api.hints.service import HintService
from api.hints.settings import HintSettings

__all__ = ["AdvicePool", "HintService", "HintSettings", "router"]
