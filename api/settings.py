"""The service's one settings object, as the operator sees it: every ``FOURSQUARE_*``
variable (docs/operations.md), each declared by the feature that reads it."""

from __future__ import annotations

from api.accounts import AccountSettings
from api.analysis import AnalysisSettings
from api.challenges import ChallengeSettings
from api.core.settings import CoreSettings
from api.events import EventSettings
from api.fairplay import FairPlaySettings
from api.games import GameSettings
from api.hints import HintSettings
from api.idempotency import IdempotencySettings
from api.leaderboards import LeaderboardSettings
from api.ops.settings import OpsSettings
from api.races import RaceSettings
from api.tournaments import TournamentSettings


class Settings(
    CoreSettings,
    OpsSettings,
    GameSettings,
    HintSettings,
    IdempotencySettings,
    AccountSettings,
    LeaderboardSettings,
    ChallengeSettings,
    EventSettings,
    RaceSettings,
    TournamentSettings,
    AnalysisSettings,
    FairPlaySettings,
):
    """Every setting of the service. Build one with ``Settings()`` in the app factory (or the
    command-line tools); it is an instance of each feature's settings class, so each feature
    is handed the one object and reads its own fields."""
