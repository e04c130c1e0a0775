"""The schedules' request and response models: one body for a schedule, whether an operator
sends it (``POST /tournament-schedules``) or sets it (``FOURSQUARE_TOURNAMENT_SCHEDULES``)."""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Annotated

from pydantic import ConfigDict, Field, field_validator, model_validator

from api.core.schemas import RequestModel, ResponseModel, WholeNumber
from api.tournaments import cron
from api.tournaments.schemas import Cap, Deals, TournamentName

WEEK_MINUTES = 7 * 24 * 60


class ScheduleIn(RequestModel):
    """A recurring tournament: one starts at each time of `cron` (UTC), lasts
    `duration_minutes`, and is announced `announce_ahead_minutes` before its start. Values are
    taken as JSON gives them: `true`, not `"yes"`; `5`, not `"5"`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "name": "Friday night",
                    "cron": "0 20 * * 5",
                    "duration_minutes": 120,
                    "deals": 5,
                    "guests": True,
                    "max_entrants": None,
                    "announce_ahead_minutes": 1440,
                }
            ]
        },
        strict=True,
        extra="forbid",
    )

    name: TournamentName = Field(description="Each of its tournaments' name (1 to 64 characters).")
    cron: str = Field(
        min_length=1,
        max_length=128,
        description="When each tournament starts, in UTC: five fields (minute hour "
        "day-of-month month day-of-week, as `croniter` reads them) or `@hourly`, `@daily`, "
        "`@weekly`, `@monthly`, `@yearly`. It may not fire more often than `duration_minutes` "
        "(its tournaments would overlap).",
        examples=["0 20 * * 5"],
    )
    duration_minutes: Annotated[int, WholeNumber] = Field(
        strict=True, ge=1, le=WEEK_MINUTES, description="How long each tournament runs."
    )
    deals: Deals = Field(description="The deals each entrant plays, in order, each once.")
    guests: bool = Field(default=False, description="Guests (no account) may enter.")
    max_entrants: Cap | None = Field(default=None, description="Entrants at most (null: no cap).")
    announce_ahead_minutes: Annotated[int, WholeNumber] = Field(
        default=60,
        strict=True,
        ge=0,
        le=WEEK_MINUTES,
        description="How long before its start each tournament is announced (and open to "
        "entrants).",
    )

    @field_validator("cron")
    @classmethod
    def _cron_is_one(cls, expression: str) -> str:
        cron.parse(expression)  # croniter's reason, as a ValueError
        return expression

    @model_validator(mode="after")
    def _tournaments_do_not_overlap(self) -> ScheduleIn:
        duration = timedelta(minutes=self.duration_minutes)
        gap = cron.shortest_gap(self.cron, duration)
        if gap is not None:
            raise ValueError(
                f"{self.cron!r} starts tournaments {_minutes(gap)} apart, and each lasts "
                f"{_minutes(duration)}: they would overlap (fire less often, or make them "
                "shorter)"
            )
        return self


def _minutes(span: timedelta) -> str:
    minutes = int(span / timedelta(minutes=1))
    return f"{minutes} minute{'' if minutes == 1 else 's'}"


class ScheduleOut(ResponseModel):
    """A schedule, and when its next tournament starts."""

    id: uuid.UUID
    name: str
    cron: str
    duration_minutes: int
    deals: int
    guests: bool
    max_entrants: int | None
    announce_ahead_minutes: int
    created_at: datetime
    cancelled_at: datetime | None = Field(
        description="When an operator deleted it: it announces no more tournaments."
    )
    from_settings: bool = Field(
        description="Set in `FOURSQUARE_TOURNAMENT_SCHEDULES` (its id is derived from its "
        "name): each server's start sets it again as the setting says."
    )
    next_start: datetime | None = Field(
        description="The next start of its tournaments, later than now (null once deleted)."
    )


class ScheduleList(ResponseModel):
    """Every schedule, the deleted ones included, oldest first."""

    schedules: list[ScheduleOut]
