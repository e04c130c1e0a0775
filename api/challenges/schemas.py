"""The daily challenge's response model."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from pydantic import (
    ConfigDict,
    Field,
)

from api.core.schemas import DeckReveal, ResponseModel
from api.games import GAME_EXAMPLE

Day = date  # (a field named ``date`` cannot be annotated with the name it shadows)


class DailyChallenge(ResponseModel):
    """One UTC day's challenge: one deal for every player, committed to before anyone plays."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "date": "2026-12-01",
                    "deck_commitment": GAME_EXAMPLE["deck_commitment"],
                    "played": 12,
                    "won": 5,
                    "opens_at": "2026-12-01T00:00:00Z",
                    "closes_at": "2026-12-02T00:00:00Z",
                    "closed": False,
                    "reveal": None,
                }
            ]
        }
    )

    date: Day
    deck_commitment: str = Field(
        description="SHA-256 of the day's salt and deck order (the recipe of a game's "
        "`deck_commitment`); every challenge game of the day carries it."
    )
    played: int = Field(description="Challenge games started this day (one per player).")
    won: int = Field(description="Of those, the games won.")
    your_game_id: uuid.UUID | None = Field(
        default=None,
        description="Asked with a player's key (`Authorization: Bearer <key>`): the id of "
        "their challenge game of this day if they have started it, else null; null without "
        "a key.",
    )
    opens_at: datetime = Field(description="00:00 UTC of the day.")
    closes_at: datetime = Field(
        description="00:00 UTC the next day: from then on the deal is revealed and the day's "
        "games take no more placements."
    )
    closed: bool
    reveal: DeckReveal | None = Field(
        description="The day's deck order and salt, once the day has closed; null before."
    )
