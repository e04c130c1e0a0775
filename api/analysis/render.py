"""The analysis' responses, rendered from the stored job and its result's storage format."""

from __future__ import annotations

from api.analysis.result import EstimateRecord, StoredResult
from api.analysis.schemas import (
    AnalysisEstimate,
    AnalysisOut,
    AnalysisProgress,
    AnalysisResult,
    HindsightOptimum,
    PlacementAnalysis,
)
from api.analysis.service import Analysis
from api.games.records import card_out, position_out


def _estimate(estimate: EstimateRecord) -> AnalysisEstimate:
    return AnalysisEstimate(
        placement=position_out(estimate.cell),
        win_probability=estimate.win_probability,
        expected_score=estimate.expected_score,
    )


def result_out(stored: StoredResult) -> AnalysisResult:
    optimum = stored.optimum
    return AnalysisResult.model_validate(
        {
            "status": stored.status,
            "score": stored.score,
            "accuracy": stored.accuracy,
            "labels": stored.labels,
            "effort": stored.effort,
            "placements": [
                PlacementAnalysis(
                    number=review.number,
                    card=card_out(review.card),
                    played=_estimate(review.played),
                    best=_estimate(review.best),
                    legal_placements=review.legal_placements,
                    forced=review.forced,
                    win_probability_loss=review.win_probability_loss,
                    expected_score_loss=review.expected_score_loss,
                    label=review.label,  # type: ignore[arg-type]
                    accuracy=review.accuracy,
                )
                for review in stored.reviews
            ],
            "optimum": None
            if optimum is None
            else HindsightOptimum(
                score=optimum.score,
                proven=optimum.proven,
                upper_bound=optimum.upper_bound,
                line=[position_out(cell) for cell in optimum.line],
            ),
        }
    )


def analysis_out(analysis: Analysis) -> AnalysisOut:
    record = analysis.record
    return AnalysisOut(
        game_id=record.game_id,
        state=record.state,  # type: ignore[arg-type]
        progress=AnalysisProgress(reviewed=record.reviewed, total=record.total),
        requested_at=record.requested_at,
        started_at=record.started_at,
        finished_at=record.finished_at,
        error=record.error,
        result=result_out(analysis.result) if analysis.result is not None else None,
    )
