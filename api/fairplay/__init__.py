"""Fair play: a won game without hints is reviewed against the computer player's choices
before it joins a public board (:mod:`engine.fairplay` judges; this feature queues, stores
the verdict, keeps flagged games and marked accounts off the boards, and serves the
moderators). docs/fairplay.md states the rule and its figures."""

from api.fairplay.errors import NotAModerator
from api.fairplay.routes import OperatorKey, router
from api.fairplay.runner import FairPlayRunner
from api.fairplay.service import FairPlayService, Moderators, is_marked, subscribe
from api.fairplay.settings import FairPlaySettings

__all__ = [
    "FairPlayRunner",
    "FairPlayService",
    "FairPlaySettings",
    "Moderators",
    "NotAModerator",
    "OperatorKey",
    "is_marked",
    "router",
    "subscribe",
]
