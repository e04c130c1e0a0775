"""Race ids in URLs: a race id that is not a UUID names a race that does not exist."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.ids import existing, parse_id
from api.races.errors import RaceNotFound

T = TypeVar("T")


def _missing(race_id: str) -> RaceNotFound:
    return RaceNotFound(f"no race has the id {race_id!r}")


def parse_race_id(raw: str) -> uuid.UUID:
    """A race id from a URL; anything that is not a UUID is a race that does not exist."""
    return parse_id(raw, _missing)


def existing_race(what: T | None, race_id: str | uuid.UUID) -> T:
    """What was read of a race, or ``404 race_not_found`` if nothing was."""
    return existing(what, race_id, _missing)
