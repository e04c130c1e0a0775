"""Race ids in URLs: a race id that is not a UUID names a race that does not exist."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.errors import echo
from api.races.errors import RaceNotFound

T = TypeVar("T")


def parse_race_id(raw: str) -> uuid.UUID:
    """A race id from a URL; anything that is not a UUID is a race that does not exist."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise RaceNotFound(f"no race has the id {echo(raw)!r}") from None


def existing_race(what: T | None, race_id: str | uuid.UUID) -> T:
    """What was read of a race, or ``404 race_not_found`` if nothing was."""
    if what is None:
        raise RaceNotFound(f"no race has the id {echo(str(race_id))!r}")
    return what
