"""The models every feature's schemas build on, and the problem+json error body."""

from __future__ import annotations

import uuid
from typing import Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
)

from engine import CARDS


def whole_number(value: object) -> object:
    """JSON Schema's ``integer`` admits ``1.0``; so do we (but not ``1.5``, ``"1"`` or ``true``)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# An integer as JSON gives it, strictly: no string, no boolean, no fraction (its bounds go in
# the same ``Field``: a second one would keep them out of the JSON schema).
WholeNumber = BeforeValidator(whole_number)

# A game's status and why it ended, as every feature names them.
StatusName = Literal["in_progress", "won", "lost"]
EndReasonName = Literal["too_many_face_down", "stock_exhausted", "abandoned"]


class ResponseModel(BaseModel):
    """A response body: immutable once built."""

    model_config = ConfigDict(frozen=True)


class RequestModel(BaseModel):
    """A request body: unknown fields are refused, not ignored."""

    model_config = ConfigDict(extra="forbid")


SuitName = Literal["clubs", "diamonds", "hearts", "spades"]

# Every card as a response value, built once (a game's answer holds dozens).
CARD_VALUES: dict[str, dict[str, Any]] = {
    card.code: {"rank": card.rank, "suit": card.suit.label, "code": card.code} for card in CARDS
}


class CardOut(ResponseModel):
    """A card. Suits never matter for the rules."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"rank": 6, "suit": "diamonds", "code": "6D"}]}
    )

    rank: int = Field(ge=1, le=10, description="1 (Ace) to 10.")
    suit: SuitName
    code: str = Field(description="Rank (A, 2..10) then suit (C, D, H, S).", examples=["6D"])

    @classmethod
    def of(cls, code: str) -> CardOut:
        return cls.model_validate(CARD_VALUES[code])


class PositionOut(ResponseModel):
    """A place on the grid, relative to the first pile at (0, 0); rows grow downward."""

    row: int
    col: int

    @classmethod
    def of(cls, cell: tuple[int, int]) -> PositionOut:
        return cls(row=cell[0], col=cell[1])


class DeckReveal(ResponseModel):
    """The deck order and the salt, revealed when the game ends.

    Check: ``sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest() == deck_commitment``.
    """

    deck: list[str] = Field(
        min_length=40, max_length=40, description="Card codes, first drawn first."
    )
    salt: str


class FieldError(ResponseModel):
    loc: list[str] = Field(description="Where the error is, e.g. ['body', 'row'].")
    message: str
    type: str


class Problem(ResponseModel):
    """An error, as RFC 9457 problem details, with a machine-readable ``code``."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "type": "urn:foursquare:problem:not_adjacent",
                    "title": "Illegal placement",
                    "status": 422,
                    "detail": "(2, 0) is not adjacent to any pile",
                    "code": "not_adjacent",
                    "instance": "/games/0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80/placements",
                    "request_id": "4f6c2b1e9a8d4c7b8e5f3a2d1c0b9a87",
                }
            ]
        }
    )

    type: str
    title: str
    status: int
    detail: str
    code: str = Field(description="Stable and machine-readable, e.g. `not_adjacent`.")
    instance: str | None = None
    errors: list[FieldError] | None = Field(
        default=None, description="For `invalid_request`: every offending field."
    )
    current_version: int | None = Field(
        default=None, description="For `precondition_failed`: the game's version now."
    )
    request_id: str | None = Field(
        default=None,
        description="The request's id, as in the `X-Request-ID` response header and the "
        "server's log line (a replayed idempotent response keeps its first request's id).",
    )
    game_id: uuid.UUID | None = Field(
        default=None,
        description="For `challenge_already_played`: the player's game of that day's challenge.",
    )
