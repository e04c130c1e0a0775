"""An analysis's result as it is stored: a storage format of its own, so that a change to the
response models never reaches a stored row.

Format 2 is compact: cards by their codes, placements as ``(row, col)``. Format 1 (results
stored before format 2) held the response's own shape; :func:`loads` still reads it, so an
old analysis is shown as it was computed.
"""

from __future__ import annotations

import json
from typing import Any

from api.analysis.schemas import AnalysisResult
from api.core.schemas import CardOut, PositionOut
from engine.analysis import PlacementReview, Review
from engine.grid import Position
from engine.player.advice import Estimate
from engine.solver import Optimum

FORMAT = 2


def _cell(position: Position) -> tuple[int, int]:
    return position.row, position.col


def _estimate(estimate: Estimate) -> dict[str, Any]:
    return {
        "cell": _cell(estimate.position),
        "win_probability": estimate.win_probability,
        "expected_score": estimate.expected_score,
    }


def _review(review: PlacementReview) -> dict[str, Any]:
    return {
        "number": review.number,
        "card": review.card.code,
        "played": _estimate(review.played),
        "best": _estimate(review.advised),
        "legal_placements": review.legal_placements,
        "forced": review.forced,
        "win_probability_loss": review.win_probability_loss,
        "expected_score_loss": review.expected_score_loss,
        "label": review.label.value,
        "accuracy": review.accuracy,
    }


def dumps(
    status: str,
    score: int | None,
    summary: Review,
    effort: int | None,
    optimum: Optimum | None,
) -> str:
    """The stored result of a game's analysis, from the engine's reviews and hindsight
    optimum."""
    return json.dumps(
        {
            "format": FORMAT,
            "status": status,
            "score": score,
            "accuracy": summary.accuracy,
            "labels": {label.value: count for label, count in summary.counts().items()},
            "effort": effort,
            "reviews": [_review(review) for review in summary.placements],
            "optimum": None
            if optimum is None
            else {
                "score": optimum.score,
                "proven": optimum.proven,
                "upper_bound": optimum.upper_bound,
                "line": [_cell(position) for position in optimum.line],
            },
        },
        separators=(",", ":"),  # no spaces: the stored format is compact
    )


def _estimate_out(stored: dict[str, Any]) -> dict[str, Any]:
    return {
        "placement": PositionOut.of(stored["cell"]),
        "win_probability": stored["win_probability"],
        "expected_score": stored["expected_score"],
    }


def loads(text: str) -> AnalysisResult:
    """A stored result of either format, as the response shows it."""
    data = json.loads(text)
    if data.pop("format", None) is None:
        # Format 1 is the response's shape; only its cards are rendered again, from their
        # codes, so that they follow the card model as it is now.
        for placement in data["placements"]:
            placement["card"] = CardOut.of(placement["card"]["code"])
        return AnalysisResult.model_validate(data)
    data["placements"] = [
        {
            **review,
            "card": CardOut.of(review["card"]),
            "played": _estimate_out(review["played"]),
            "best": _estimate_out(review["best"]),
        }
        for review in data.pop("reviews")
    ]
    optimum = data["optimum"]
    if optimum is not None:
        optimum["line"] = [PositionOut.of(cell) for cell in optimum["line"]]
    return AnalysisResult.model_validate(data)
