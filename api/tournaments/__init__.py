"""Tournaments: the same committed deals for every entrant, on a schedule, with standings
that move and final standings that stay."""

from api.tournaments import tables
from api.tournaments.bulk import LoadedEntrant, bulk_entrants, bulk_finish

__all__ = ["LoadedEntrant", "bulk_entrants", "bulk_finish", "tables"]
