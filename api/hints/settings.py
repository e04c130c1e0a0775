"""The hints' settings: a hint's effort, and the workers and queue that compute hints."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase
from engine.player import DEFAULT_PLACEMENTS


class HintSettings(SettingsBase):
    """What the hints feature reads."""

    hint_placements: int = Field(
        default=DEFAULT_PLACEMENTS,
        ge=0,
        description="Simulated placements a hint may spend (its effort). The default is the "
        "engine's `engine.player.DEFAULT_PLACEMENTS`, the effort `foursquare simulate` "
        "measures in the README.",
    )
    hint_max_ms: float = Field(
        default=2000, gt=0, description="Wall-clock cap on one hint, in milliseconds."
    )
    hint_workers: int = Field(
        default=1,
        ge=1,
        description="Worker processes computing hints, per server process (hints never run "
        "on the process answering requests, so they cannot slow its placements).",
    )
    hint_queue: int = Field(
        default=4,
        ge=0,
        description="Hints that may wait for a free worker, per server process; beyond "
        "that a hint gets 503 `hints_busy` with Retry-After.",
    )
