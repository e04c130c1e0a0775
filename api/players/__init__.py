"""Players: their pages, their figures and their games (their accounts are api.accounts')."""

from api.players.routes import router, sign_in_router
from api.players.service import PlayerService, subscribe

__all__ = ["PlayerService", "router", "sign_in_router", "subscribe"]
