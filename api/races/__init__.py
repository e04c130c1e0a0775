"""Races: one shared deal played at once by several racers, and the computer at a level."""

from api.races.routes import EVENT_MODELS, players_router, router
from api.races.service import RaceService
from api.races.settings import RaceSettings
from api.races.store import race_counts
from api.races.ticker import subscribe

__all__ = [
    "EVENT_MODELS",
    "RaceService",
    "RaceSettings",
    "players_router",
    "race_counts",
    "router",
    "subscribe",
]
