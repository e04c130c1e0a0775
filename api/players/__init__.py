"""Players: accounts, their keys, their figures and their games."""

from api.players.credentials import find_player
from api.players.errors import PlayerNotFound
from api.players.routes import router, sign_in_router
from api.players.service import PlayerService, race_counts, subscribe
from api.players.settings import PlayerSettings

__all__ = [
    "PlayerNotFound",
    "PlayerService",
    "PlayerSettings",
    "find_player",
    "race_counts",
    "router",
    "sign_in_router",
    "subscribe",
]
