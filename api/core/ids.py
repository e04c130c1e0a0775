"""Ids in URLs: a game id that is not a UUID names a game that does not exist."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.errors import GameNotFound, RaceNotFound, echo

T = TypeVar("T")


def parse_game_id(raw: str) -> uuid.UUID:
    """A game id from a URL; anything that is not a UUID is a game that does not exist."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise GameNotFound(f"there is no game {echo(raw)!r}") from None


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


def existing_game(what: T | None, game_id: str | uuid.UUID) -> T:
    """What was read of a game, or ``404 game_not_found`` if nothing was."""
    if what is None:
        raise GameNotFound(f"there is no game {echo(str(game_id))!r}")
    return what
