"""The leaderboards' settings."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase


class LeaderboardSettings(SettingsBase):
    """What the leaderboards feature reads."""

    leaderboard_cache_pages: int = Field(
        default=256,
        ge=0,
        description="Rendered leaderboard pages kept per process while the leaderboard does "
        "not change (0: none, every request runs the query).",
    )
