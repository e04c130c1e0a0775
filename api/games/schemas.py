"""The games' request and response models: games, placements and their history."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from api.core.names import NAME_RULE, PlayerName
from api.core.schemas import (
    CardOut,
    DeckReveal,
    EndReasonName,
    PositionOut,
    RequestModel,
    ResponseModel,
    StatusName,
    WholeNumber,
)
from engine.grid import WINDOW_RADIUS

Coordinate = Annotated[
    int,
    Field(
        strict=True,
        ge=-WINDOW_RADIUS,
        le=WINDOW_RADIUS,
        description="Relative to the first pile at (0, 0); no placement can ever use more than 3.",
    ),
    WholeNumber,
]


class PileOut(ResponseModel):
    """A pile: its cards from bottom to top. Only the top card's face matters."""

    row: int
    col: int
    cards: list[CardOut] = Field(min_length=1, max_length=4)
    face_up: bool = Field(description="Whether the top card is face up.")


class FlipOut(ResponseModel):
    """A pile whose top card was turned over by a placement, and the side it now shows."""

    row: int
    col: int
    face_up: bool


GAME_EXAMPLE: dict[str, Any] = {
    "id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
    "player": "ana",
    "status": "in_progress",
    "end_reason": None,
    "score": None,
    "current_card": {"rank": 9, "suit": "hearts", "code": "9H"},
    "stock_count": 37,
    "face_down_count": 1,
    "placements_count": 2,
    "piles": [
        {
            "row": 0,
            "col": 0,
            "cards": [{"rank": 5, "suit": "clubs", "code": "5C"}],
            "face_up": False,
        },
        {
            "row": 0,
            "col": 1,
            "cards": [{"rank": 8, "suit": "clubs", "code": "8C"}],
            "face_up": True,
        },
    ],
    "legal_placements": [
        {"row": -1, "col": 0},
        {"row": -1, "col": 1},
        {"row": 0, "col": -1},
        {"row": 0, "col": 0},
        {"row": 0, "col": 1},
        {"row": 0, "col": 2},
        {"row": 1, "col": 0},
        {"row": 1, "col": 1},
    ],
    "version": 3,
    "assisted": False,
    "deck_commitment": "5d41c2a1f0b7e3d9a8c6b4e2f1d0c9b8a7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2",
    "reveal": None,
    "created_at": "2026-11-29T16:20:00.000000Z",
    "updated_at": "2026-11-29T16:20:09.000000Z",
    "finished_at": None,
    "challenge_date": None,
    "computer": False,
}


ReviewState = Literal["pending", "clean", "flagged", "cleared", "confirmed", "held"]


class FairPlayOut(ResponseModel):
    """The fair-play review's word on a won game without hints (docs/fairplay.md)."""

    status: ReviewState = Field(
        description="`pending`: being checked, on no public board yet; `clean`: checked, on "
        "the boards; `flagged`: held off the public boards (its placements followed the "
        "computer player's choices too closely); `cleared`: a moderator put a flagged game "
        "back on the boards; `confirmed`: a moderator kept it off; `held`: off the boards "
        "while its account is marked."
    )
    words: str = Field(description="The state in words, for the player.")


class GameOut(ResponseModel):
    """A game as anyone may see it: everything but the order of the stock."""

    model_config = ConfigDict(json_schema_extra={"examples": [GAME_EXAMPLE]})

    id: uuid.UUID
    player: str
    status: StatusName
    end_reason: EndReasonName | None = Field(
        description="Why the game was lost (abandoned: left untouched too long, see "
        "`foursquare expire`); null otherwise."
    )
    score: int | None = Field(description="Cards left in the stock when won; null until won.")
    current_card: CardOut | None = Field(
        description="The card drawn and waiting to be placed; null once the game is over."
    )
    stock_count: int = Field(description="Cards still in the stock, not counting the current card.")
    face_down_count: int = Field(description="Piles whose top card is face down (5 loses).")
    placements_count: int
    piles: list[PileOut] = Field(description="Sorted by row, then column.")
    legal_placements: list[PositionOut] = Field(
        description="Where the current card may go, sorted by row then column; empty when over."
    )
    version: int = Field(
        description="Bumped by every change (placements, the first hint); the ETag is built on it."
    )
    assisted: bool = Field(description="Whether the player asked for a hint in this game.")
    deck_commitment: str = Field(
        description="SHA-256 of the salt and the deck order, fixed when the game was dealt."
    )
    reveal: DeckReveal | None = Field(
        description="The deck order and the salt, once the game is over; null before. A daily "
        "challenge game shows them only once its day has closed (the deal is everybody's)."
    )
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    challenge_date: date | None = Field(
        description="The UTC day whose daily challenge this game is (see `GET "
        "/challenges/{date}`); null for an ordinary game."
    )
    computer: bool = Field(
        default=False,
        description="The computer player's game (a race's computer racer): on no leaderboard.",
    )
    rank: int | None = Field(
        default=None,
        description="A won game's all-time rank on `/leaderboard` (for an assisted game, on "
        "the listing with `include_assisted=true`); null otherwise. It moves as better games "
        "finish: a won game's ETag includes it.",
    )
    fair_play: FairPlayOut | None = Field(
        default=None,
        description="A won game without hints is checked by the fair-play review before it "
        "joins a public board: its state. Null for other games (and for wins from before "
        "the review existed).",
    )


class GameCreated(GameOut):
    """A new game, with the secret token that authorises placements on it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    **GAME_EXAMPLE,
                    "token": "Vx3lM2k0b1Q9t7l0cG9rZXIta2VlcC1pdC1zZWNyZXQ",
                }
            ]
        }
    )

    token: str = Field(
        description="Send as `Authorization: Bearer <token>` to place cards. Shown only once."
    )


class GameCreate(RequestModel):
    """Who is playing. The body may be omitted altogether."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "ana"}]})

    player: PlayerName = Field(
        default="anonymous",
        description=(
            f"{NAME_RULE}, as for an account: one rule for every name, and one refusal "
            "(`422 invalid_player_name`). A registered "
            "player's name, or one that looks like it (in any case, or with look-alike "
            "letters: `aIice` for `alice`), needs their key (`409 name_taken` without it); "
            "with a key, omit it or give the key's name (in any case)."
        ),
    )
    challenge: Literal["daily"] | None = Field(
        default=None,
        description="`daily`: play today's daily challenge, the deal every player gets today "
        "(needs a player's key; one attempt per player per UTC day). Omitted: a fresh deal.",
    )


class PlacementIn(RequestModel):
    """Where to put the current card."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"row": 1, "col": -1}]})

    row: Coordinate
    col: Coordinate


class PlacementOut(ResponseModel):
    """One placement: the card played, where, what it flipped and the status after it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "number": 2,
                    "row": 0,
                    "col": 1,
                    "card": {"rank": 8, "suit": "clubs", "code": "8C"},
                    "flipped": [{"row": 0, "col": 0, "face_up": False}],
                    "status_after": "in_progress",
                    "stock_count": 37,
                    "created_at": "2026-11-29T16:20:09.000000Z",
                }
            ]
        }
    )

    number: int = Field(description="1 for the first placement of the game.")
    row: int
    col: int
    card: CardOut
    flipped: list[FlipOut] = Field(description="Sorted by row, then column.")
    status_after: StatusName
    stock_count: int = Field(
        ge=0,
        le=39,
        description="Cards left in the stock after this placement, not counting the card "
        "drawn next (the game's `stock_count` then; a won game's score).",
    )
    created_at: datetime


class PlacementCreated(ResponseModel):
    """The placement just made and the game after it."""

    placement: PlacementOut
    game: GameOut


class PlacementHistory(ResponseModel):
    """Every placement of a game, in order (at most 40)."""

    game_id: uuid.UUID
    placements: list[PlacementOut] = Field(max_length=40)
