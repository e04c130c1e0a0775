"""Ids in URLs, for every feature: an id that is not a UUID names nothing that exists, so it
is the feature's own 404, as an unknown UUID is. Each feature passes the error that says
what is missing (a game, a race, a tournament)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TypeVar

from api.core.errors import ApiError, echo

T = TypeVar("T")
# The feature's 404 for an id, given the id as a problem may echo it.
Missing = Callable[[str], ApiError]


def parse_id(raw: str, missing: Missing) -> uuid.UUID:
    """An id from a URL; anything that is not a UUID is ``missing``."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise missing(echo(raw)) from None


def existing(what: T | None, found_id: str | uuid.UUID, missing: Missing) -> T:
    """What was read by ``found_id``, or ``missing`` if nothing was."""
    if what is None:
        raise missing(echo(str(found_id)))
    return what
