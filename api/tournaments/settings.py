"""The tournaments' settings: which processes look after them, and how long the final
standings wait for the fair-play review."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase


class TournamentSettings(SettingsBase):
    """What the tournaments feature reads (the schedules' own are beside them)."""

    tournament_worker: bool = Field(
        default=True,
        description="This server process looks after the tournaments too (starts, ends, "
        "final standings); any process may, each step is claimed once.",
    )
    tournament_review_wait_seconds: float = Field(
        default=3600,
        ge=0,
        le=7 * 24 * 3600,
        description="How long an ended tournament waits for the fair-play review's word on "
        "its wins before its final standings: a win still unreviewed then counts (a slow "
        "review costs no honest player a place; a moderator can still flag the game, and its "
        "boards follow, but the standings stay as written).",
    )
    tournament_tick_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="How often the tournaments' ticker looks for a start or an end due.",
    )
