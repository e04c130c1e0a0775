"""Tournaments: the same committed deals for every entrant, on a schedule, with standings
that move and final standings that stay."""

from api.tournaments import tables
from api.tournaments.bulk import LoadedEntrant, bulk_entrants, bulk_finish
from api.tournaments.routes import EVENT_MODELS, players_router, router
from api.tournaments.schedule_routes import router as schedule_router
from api.tournaments.schedule_schemas import ScheduleIn
from api.tournaments.schedule_settings import ScheduleSettings
from api.tournaments.schedules import ScheduleService
from api.tournaments.schedules import settings_id as schedule_settings_id
from api.tournaments.service import TournamentService, TournamentSpec, announce
from api.tournaments.settings import TournamentSettings
from api.tournaments.standings_store import tournament_places
from api.tournaments.ticker import subscribe

__all__ = [
    "EVENT_MODELS",
    "LoadedEntrant",
    "ScheduleIn",
    "ScheduleService",
    "ScheduleSettings",
    "TournamentService",
    "TournamentSettings",
    "TournamentSpec",
    "announce",
    "bulk_entrants",
    "bulk_finish",
    "players_router",
    "router",
    "schedule_router",
    "schedule_settings_id",
    "subscribe",
    "tables",
    "tournament_places",
]
