"""Tournaments: the same committed deals for every entrant, on a schedule, with standings
that move and final standings that stay."""

from api.tournaments import tables

__all__ = ["tables"]
