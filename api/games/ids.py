"""Game ids in URLs: a game id that is not a UUID names a game that does not exist."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.errors import echo
from api.games.errors import GameNotFound

T = TypeVar("T")


def parse_game_id(raw: str) -> uuid.UUID:
    """A game id from a URL; anything that is not a UUID is a game that does not exist."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise GameNotFound(f"there is no game {echo(raw)!r}") from None


def existing_game(what: T | None, game_id: str | uuid.UUID) -> T:
    """What was read of a game, or ``404 game_not_found`` if nothing was."""
    if what is None:
        raise GameNotFound(f"there is no game {echo(str(game_id))!r}")
    return what
