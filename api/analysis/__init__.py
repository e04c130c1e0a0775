"""Analyses of finished games: queued by a request, computed by one process."""

from api.analysis.routes import router
from api.analysis.runner import AnalysisRunner
from api.analysis.service import AnalysisService

__all__ = ["AnalysisRunner", "AnalysisService", "router"]
