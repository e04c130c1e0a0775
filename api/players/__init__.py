"""Players: accounts, their keys, their figures and their games."""

from api.players.routes import router, sign_in_router
from api.players.service import PlayerService, subscribe

__all__ = ["PlayerService", "router", "sign_in_router", "subscribe"]
