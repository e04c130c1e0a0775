"""The analysis' response models."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from pydantic import (
    ConfigDict,
    Field,
)

from api.core.schemas import CardOut, PositionOut, ResponseModel, StatusName

AnalysisState = Literal["queued", "running", "done", "failed"]
LabelName = Literal["best", "good", "inaccuracy", "mistake", "blunder"]


class AnalysisEstimate(ResponseModel):
    """A placement and what the computer player expected of it, from the public view."""

    placement: PositionOut
    win_probability: float = Field(ge=0, le=1)
    expected_score: float = Field(ge=0, description="A loss counted as 0.")


class PlacementAnalysis(ResponseModel):
    """One placement, judged from what the player could see at that moment."""

    number: int = Field(ge=1, description="1 for the first placement.")
    card: CardOut
    played: AnalysisEstimate = Field(description="The placement made, as estimated.")
    best: AnalysisEstimate = Field(description="The computer player's choice.")
    legal_placements: int = Field(ge=1)
    forced: bool = Field(description="Only one legal placement: left out of the accuracy.")
    win_probability_loss: float = Field(
        ge=0, le=1, description="`best` minus `played` win probability, never below 0."
    )
    expected_score_loss: float = Field(
        ge=0, description="`best` minus `played` expected score, never below 0."
    )
    label: LabelName = Field(
        description="`best` (the computer player's choice), else by the win-probability loss: "
        "`good` < 0.01 <= `inaccuracy` < 0.03 <= `mistake` < 0.10 <= `blunder`."
    )
    accuracy: float = Field(ge=0, le=100, description="lichess's formula on the win-% loss.")


class HindsightOptimum(ResponseModel):
    """The best score of the deal with the whole deck order known, and a line reaching it."""

    score: int | None = Field(description="The best score found; null if no win was found.")
    proven: bool = Field(description="True when the search proved `score` optimal.")
    upper_bound: int | None = Field(description="No line scores more than this.")
    line: list[PositionOut] = Field(max_length=40, description="Placements reaching `score`.")


class AnalysisResult(ResponseModel):
    """A finished game's analysis."""

    status: StatusName
    score: int | None
    accuracy: float | None = Field(
        ge=0,
        le=100,
        description="Mean accuracy of the placements that had a choice; null if none had.",
    )
    labels: dict[LabelName, int] = Field(description="How many placements got each label.")
    effort: int | None = Field(
        description="Simulated placements the computer player spent on each placement."
    )
    placements: list[PlacementAnalysis] = Field(max_length=40)
    optimum: HindsightOptimum | None = Field(
        default=None, description="The hindsight optimum of the deal (null if not computed)."
    )


class AnalysisProgress(ResponseModel):
    reviewed: int = Field(ge=0, description="Placements reviewed so far.")
    total: int = Field(ge=0, description="Placements to review.")


class AnalysisOut(ResponseModel):
    """An analysis: its state and progress, and its result once `done`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "state": "running",
                    "progress": {"reviewed": 12, "total": 28},
                    "requested_at": "2026-12-01T09:12:45.000000Z",
                    "started_at": "2026-12-01T09:12:45.200000Z",
                    "finished_at": None,
                    "error": None,
                    "result": None,
                }
            ]
        }
    )

    game_id: uuid.UUID
    state: AnalysisState = Field(
        description="`queued`, `running` (202 while either), `done` (with `result`) or "
        "`failed` (with `error`; POST again to retry)."
    )
    progress: AnalysisProgress
    requested_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    error: str | None
    result: AnalysisResult | None
