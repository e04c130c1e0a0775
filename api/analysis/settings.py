"""The analyses' settings (POST /games/{id}/analysis): their effort, and the process that
computes them."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase
from engine.player import DEFAULT_PLACEMENTS


class AnalysisSettings(SettingsBase):
    """What the analysis feature reads."""

    analysis_placements: int = Field(
        default=DEFAULT_PLACEMENTS,
        ge=0,
        description="Simulated placements the computer player spends on each placement of a "
        "game under analysis (the hint's default effort).",
    )
    analysis_solver_nodes: int | None = Field(
        default=None,
        ge=1,
        description="Search nodes for the hindsight optimum of an analysed game (unset: the "
        "solver's default).",
    )
    analysis_poll_seconds: float = Field(
        default=2.0,
        gt=0,
        description="How often each server process looks for an analysis to claim (a request "
        "to the same process wakes it at once).",
    )
    analysis_heartbeat_seconds: float = Field(
        default=5.0,
        gt=0,
        description="How often a process computing an analysis renews its claim.",
    )
    analysis_stale_seconds: float = Field(
        default=60.0,
        gt=0,
        description="A claim not renewed for this long is taken over by another process (its "
        "process died). Keep it several heartbeats long.",
    )
    analysis_max_attempts: int = Field(
        default=3,
        ge=1,
        description="Claims an analysis gets before it is marked failed (a job that kills its "
        "process every time is not taken over for ever).",
    )
    analysis_worker: bool = Field(
        default=True,
        description="Whether this server process computes analyses (in a worker process of "
        "its own). Off: it only queues and serves them.",
    )
