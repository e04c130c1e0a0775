"""The daily challenge: one deal a day for every player, its page and its board."""

from api.challenges.routes import router
from api.challenges.service import SECRET_NAME, ChallengeService, counts
from api.challenges.settings import ChallengeSettings

__all__ = ["SECRET_NAME", "ChallengeService", "ChallengeSettings", "counts", "router"]
