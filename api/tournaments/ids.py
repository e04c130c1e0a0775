"""Tournament ids in URLs: a tournament id that is not a UUID names no tournament."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.ids import existing, parse_id
from api.tournaments.errors import TournamentNotFound

T = TypeVar("T")


def _missing(tournament_id: str) -> TournamentNotFound:
    return TournamentNotFound(f"no tournament has the id {tournament_id!r}")


def parse_tournament_id(raw: str) -> uuid.UUID:
    """A tournament id from a URL; anything that is not a UUID names no tournament."""
    return parse_id(raw, _missing)


def existing_tournament(what: T | None, tournament_id: str | uuid.UUID) -> T:
    """What was read of a tournament, or ``404 tournament_not_found`` if nothing was."""
    return existing(what, tournament_id, _missing)
