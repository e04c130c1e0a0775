"""Analyses of finished games: queued by a request, computed by one process."""

from api.analysis.routes import router
from api.analysis.runner import AnalysisRunner
from api.analysis.service import AnalysisService
from api.analysis.settings import AnalysisSettings

__all__ = ["AnalysisRunner", "AnalysisService", "AnalysisSettings", "router"]
