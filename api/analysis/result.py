"""An analysis's result as it is stored: a storage format, which the HTTP layer renders.

Format 2 is compact: cards by their codes, placements as ``(row, col)``. Format 1 (results
stored before this module) held the response's own shape; :func:`loads` still reads it, so an
old analysis is shown as it was computed.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict

from engine.analysis import PlacementReview, Review
from engine.player.advice import Estimate
from engine.solver import Optimum

FORMAT = 2


class _Stored(BaseModel):
    model_config = ConfigDict(frozen=True)


class EstimateRecord(_Stored):
    cell: tuple[int, int]
    win_probability: float
    expected_score: float


class ReviewRecord(_Stored):
    number: int
    card: str  # its code
    played: EstimateRecord
    best: EstimateRecord
    legal_placements: int
    forced: bool
    win_probability_loss: float
    expected_score_loss: float
    label: str
    accuracy: float


class OptimumRecord(_Stored):
    score: int | None
    proven: bool
    upper_bound: int | None
    line: list[tuple[int, int]]


class StoredResult(_Stored):
    """A finished game's analysis."""

    format: int = FORMAT
    status: str
    score: int | None
    accuracy: float | None
    labels: dict[str, int]
    effort: int | None
    reviews: list[ReviewRecord]
    optimum: OptimumRecord | None


def _estimate(estimate: Estimate) -> EstimateRecord:
    return EstimateRecord(
        cell=(estimate.position.row, estimate.position.col),
        win_probability=estimate.win_probability,
        expected_score=estimate.expected_score,
    )


def _review(review: PlacementReview) -> ReviewRecord:
    return ReviewRecord(
        number=review.number,
        card=review.card.code,
        played=_estimate(review.played),
        best=_estimate(review.advised),
        legal_placements=review.legal_placements,
        forced=review.forced,
        win_probability_loss=review.win_probability_loss,
        expected_score_loss=review.expected_score_loss,
        label=review.label.value,
        accuracy=review.accuracy,
    )


def build(
    status: str,
    score: int | None,
    summary: Review,
    effort: int | None,
    optimum: Optimum | None,
) -> StoredResult:
    """The result of a game's analysis from the engine's reviews and hindsight optimum."""
    return StoredResult(
        status=status,
        score=score,
        accuracy=summary.accuracy,
        labels={label.value: count for label, count in summary.counts().items()},
        effort=effort,
        reviews=[_review(review) for review in summary.placements],
        optimum=OptimumRecord(
            score=optimum.score,
            proven=optimum.proven,
            upper_bound=optimum.upper_bound,
            line=[(position.row, position.col) for position in optimum.line],
        )
        if optimum is not None
        else None,
    )


def dumps(result: StoredResult) -> str:
    return result.model_dump_json()


def loads(text: str) -> StoredResult:
    """A stored result of any format."""
    data = json.loads(text)
    if data.get("format") is None:
        data = _from_format_1(data)
    return StoredResult.model_validate(data)


def _from_format_1(data: dict[str, Any]) -> dict[str, Any]:
    def cell(position: dict[str, int]) -> tuple[int, int]:
        return position["row"], position["col"]

    def estimate(value: dict[str, Any]) -> dict[str, Any]:
        return {
            "cell": cell(value["placement"]),
            "win_probability": value["win_probability"],
            "expected_score": value["expected_score"],
        }

    optimum = data.get("optimum")
    return {
        "format": 1,
        "status": data["status"],
        "score": data["score"],
        "accuracy": data["accuracy"],
        "labels": data["labels"],
        "effort": data["effort"],
        "reviews": [
            {
                **{
                    key: value
                    for key, value in review.items()
                    if key not in ("card", "played", "best")
                },
                "card": review["card"]["code"],
                "played": estimate(review["played"]),
                "best": estimate(review["best"]),
            }
            for review in data["placements"]
        ],
        "optimum": None
        if optimum is None
        else {**optimum, "line": [cell(position) for position in optimum["line"]]},
    }
