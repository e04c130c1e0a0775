"""Tournaments: the same committed deals for every entrant, on a schedule, with standings
that move and final standings that stay."""

from api.tournaments import tables
from api.tournaments.bulk import LoadedEntrant, bulk_entrants, bulk_finish
from api.tournaments.routes import EVENT_MODELS, players_router, router
from api.tournaments.service import TournamentService, TournamentSpec, announce
from api.tournaments.settings import TournamentSettings
from api.tournaments.store import tournament_places
from api.tournaments.ticker import subscribe

__all__ = [
    "EVENT_MODELS",
    "LoadedEntrant",
    "TournamentService",
    "TournamentSettings",
    "TournamentSpec",
    "announce",
    "bulk_entrants",
    "bulk_finish",
    "players_router",
    "router",
    "subscribe",
    "tables",
    "tournament_places",
]
