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
    tournament_review_warn_seconds: float = Field(
        default=3600,
        ge=0,
        le=7 * 24 * 3600,
        description="An ended tournament's final standings wait for the fair-play review's "
        "word on every win (an unreviewed win never counts); one still waiting this long "
        "after its end is logged as an error, once (is a fair-play worker running?).",
    )
    tournament_tick_seconds: float = Field(
        default=1.0,
        gt=0,
        le=60,
        description="How often the tournaments' ticker looks for a start or an end due.",
    )
