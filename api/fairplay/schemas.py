"""The moderators' view of the fair-play review."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Literal

from pydantic import ConfigDict, Field

from api.core.schemas import RequestModel, ResponseModel


class Timing(ResponseModel):
    placements: int
    median_seconds: float = Field(description="The median time between two placements.")
    fastest_seconds: float
    variation: float = Field(
        description="The spread of those times over their mean: a person's varies from card "
        "to card, a fixed pause gives nearly 0."
    )
    under_one_second: int = Field(description="Placements made less than a second after the last.")


class Evidence(ResponseModel):
    """What the review read of a game, and what its rule concluded (docs/fairplay.md)."""

    verdict: Literal["clean", "flagged"]
    reasons: list[str] = Field(description="Why it was flagged, in words; empty when clean.")
    decisions: int = Field(description="Placements that had more than one legal cell.")
    agreement: dict[str, float] = Field(
        description="For each level of the computer player, the share of those decisions "
        "where the placement made was its choice (0 to 1)."
    )
    matches: dict[str, int]
    mean_loss: float | None = Field(
        description="What the placements gave away per decision by the `best` search's own "
        "estimates (40 * win probability + expected score)."
    )
    timing: Timing | None = Field(
        description="The placements' timing: evidence for moderators, not part of the rule."
    )
    rule: dict[str, float] = Field(description="The thresholds the verdict was reached with.")


class Decision(ResponseModel):
    action: Literal["clear", "confirm"]
    moderator: str
    note: str | None
    decided_at: datetime


class Review(ResponseModel):
    """A won game's fair-play review."""

    game_id: uuid.UUID
    player: str
    registered: bool = Field(description="Played by an account (false: a guest).")
    score: int
    placements_count: int
    finished_at: datetime
    challenge_date: date | None
    state: Literal["queued", "running", "done"]
    verdict: Literal["clean", "flagged"] | None
    decision: Literal["cleared", "confirmed"] | None = Field(
        description="A moderator's, on a flagged game."
    )
    attempts: int
    requested_at: datetime
    reviewed_at: datetime | None
    evidence: Evidence | None
    decisions: list[Decision] = Field(default_factory=list)


class Account(ResponseModel):
    """An account's standing with the fair-play review."""

    player: str
    state: Literal["marked", "confirmed", "cleared"] | None = Field(
        description="`marked` by the review (too many flagged wins), `confirmed` or "
        "`cleared` by a moderator; null if never marked."
    )
    flagged: int | None = Field(description="Flagged wins when it was marked.")
    marked_at: datetime | None
    decided_at: datetime | None
    reviews: list[Review] = Field(description="Its latest reviews (50), newest first.")
    decisions: list[Decision]


class Queue(ResponseModel):
    """What waits for a moderator, oldest first."""

    games: list[Review] = Field(description="Flagged games no moderator has decided on.")
    players: list[Account] = Field(description="Marked accounts no moderator has decided on.")
    stuck: list[Review] = Field(
        description="Reviews that could not be computed after every attempt (their games "
        "stay off the boards): the logs say why."
    )


class DecisionIn(RequestModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"action": "clear", "note": "known strong player"}]},
    )

    action: Literal["clear", "confirm"] = Field(
        description="`clear`: back on the public boards, the decision recorded; `confirm`: "
        "kept off."
    )
    note: str | None = Field(default=None, max_length=500, description="Why, for the record.")
