"""Game ids in URLs: a game id that is not a UUID names a game that does not exist."""

from __future__ import annotations

import uuid
from typing import TypeVar

from api.core.ids import existing, parse_id
from api.games.errors import GameNotFound

T = TypeVar("T")


def _missing(game_id: str) -> GameNotFound:
    return GameNotFound(f"there is no game {game_id!r}")


def parse_game_id(raw: str) -> uuid.UUID:
    """A game id from a URL; anything that is not a UUID is a game that does not exist."""
    return parse_id(raw, _missing)


def existing_game(what: T | None, game_id: str | uuid.UUID) -> T:
    """What was read of a game, or ``404 game_not_found`` if nothing was."""
    return existing(what, game_id, _missing)
