"""The schedules' settings: the schedules an operator sets rather than sends, and how often
each server looks for a tournament to announce."""

from __future__ import annotations

from pydantic import Field, field_validator

from api.core.settings import SettingsBase
from api.tournaments.schedule_schemas import ScheduleIn


class ScheduleSettings(SettingsBase):
    """What the tournaments' schedules read (the tournaments' own settings are beside them)."""

    tournament_schedules: list[ScheduleIn] = Field(
        default_factory=list,
        description="Schedules set in settings: a JSON list of the bodies of "
        "POST /tournament-schedules, each stored as its name says (one schedule per name).",
    )
    tournament_announce_seconds: float = Field(
        default=30,
        gt=0,
        le=3600,
        description="How often each server looks for a scheduled tournament to announce.",
    )

    @field_validator("tournament_schedules")
    @classmethod
    def _schedule_names_are_distinct(cls, schedules: list[ScheduleIn]) -> list[ScheduleIn]:
        names = [schedule.name for schedule in schedules]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise ValueError(f"two schedules are named {twice[0]!r}: a name is its schedule's id")
        return schedules
