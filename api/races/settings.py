"""The races' settings: the countdown, the computer racer's pace, how long an idle lobby
stays open, and which processes look after the races."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase


class RaceSettings(SettingsBase):
    """What the races feature reads (the computer racer's effort is a hint's: :mod:`api.hints`)."""

    race_countdown_seconds: float = Field(
        default=5, ge=0, le=60, description="A race's countdown, from its start to its deal."
    )
    race_worker: bool = Field(
        default=True,
        description="This server process looks after the races too (deals, time limits, the "
        "computer's placements); any process may, each step is claimed once.",
    )
    race_computer_seconds: float = Field(
        default=1.5, gt=0, le=60, description="The computer racer's pace: one placement this often."
    )
    race_lobby_minutes: int = Field(
        default=30,
        ge=1,
        description="A lobby with no join or leave for this long is closed by the races' "
        "ticker (it leaves the open races); nobody is left waiting in a race nobody starts.",
    )
