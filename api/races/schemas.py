"""The races' request and response models. A racer's counts are the race stream's
:class:`api.events.schemas.RacerEvent`: one shape for a racer wherever it is shown."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StringConstraints

from api.core.names import NAME_PATTERN, NAME_RULE
from api.core.schemas import DeckReveal, RequestModel, ResponseModel
from api.events.schemas import RacerEvent

RaceStatus = Literal["lobby", "countdown", "running", "finished"]
RacerName = Annotated[str, StringConstraints(min_length=3, max_length=24, pattern=NAME_PATTERN)]


class RacerIn(RequestModel):
    """Who joins. The body may be omitted (an account's key names its player)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "ana"}]})

    player: RacerName | None = Field(
        default=None,
        description=f"{NAME_RULE}; the same rule and `409 name_taken` checks as `POST /games` "
        "(omitted: the key's account, or a guest called `anonymous`). Unique in the race.",
    )


class RaceCreate(RacerIn):
    """A new race: its opener (its first racer) and its rules."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "ana", "computer": True}]})

    computer: bool = Field(default=False, description="The computer player races too.")
    seats: int = Field(default=4, ge=2, le=8, description="Racers at most, the computer included.")
    time_limit: int = Field(
        default=300, ge=30, le=3600, description="Seconds from the start; unfinished games lose."
    )


class YourGame(ResponseModel):
    """Your game of the race: play it through `POST /games/{id}/placements` with `token`."""

    id: uuid.UUID
    token: str = Field(
        description="What authorises its placements: the credential this request was sent with "
        "(a guest's racer token, or the account's key)."
    )


class RaceOut(ResponseModel):
    """A race as anyone may see it (counts only), and the asker's own racer and game."""

    id: uuid.UUID
    status: RaceStatus
    seats: int
    time_limit: int = Field(description="Seconds from the start.")
    deck_commitment: str = Field(
        description="`sha256(salt + ':' + deck)` of the shared deal, as a game's; its deck and "
        "salt are in `reveal` once the race is over."
    )
    created_at: datetime
    starts_at: datetime | None = Field(description="Set by the start: the countdown's end.")
    ends_at: datetime | None = Field(description="When unfinished games end, lost.")
    finished_at: datetime | None
    next_race: uuid.UUID | None = Field(description="The rematch, once someone asked for it.")
    racers: list[RacerEvent] = Field(
        description="In the race's ranking once it is finished, else in the order they joined."
    )
    you: int | None = Field(description="Your racer's number, if the credential sent is one's.")
    your_game: YourGame | None = Field(description="Your game, once the race has started.")
    reveal: DeckReveal | None = Field(description="The shared deal, once the race is over.")


class RaceCreated(RaceOut):
    """A race just opened or joined."""

    racer_token: str | None = Field(
        description="A guest racer's credential (send it as `Authorization: Bearer <token>`); "
        "null for an account, which uses its key. Shown only once."
    )


class PlayerRaceOut(ResponseModel):
    race_id: uuid.UUID
    status: RaceStatus
    created_at: datetime
    racers: int
    rank: int | None = Field(description="The player's place once the race is finished.")


class PlayerRaces(ResponseModel):
    """A player's race figures, and their races, newest first (the last 100)."""

    races_played: int = Field(description="Races finished.")
    races_won: int = Field(description="Races finished first.")
    races: list[PlayerRaceOut]
