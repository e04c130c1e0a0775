"""The games' settings: when a game left alone is abandoned, and how often expiry runs."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase


class GameSettings(SettingsBase):
    """What the games feature reads (its expiry)."""

    abandon_after_hours: float = Field(
        default=168,
        gt=0,
        description="A game in progress untouched (no placement, no hint) this long ends as "
        "lost, abandoned, when `foursquare expire` runs.",
    )
    expire_every_minutes: float = Field(
        default=0,
        ge=0,
        description="Each server process also ends abandoned games this often (0: never; "
        "run `foursquare expire` from cron instead).",
    )
