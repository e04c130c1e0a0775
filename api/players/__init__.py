"""Players: accounts, their keys, their figures and their games."""

from api.players.routes import router
from api.players.service import PlayerService, find_player, race_counts, subscribe

__all__ = ["PlayerService", "find_player", "race_counts", "router", "subscribe"]
