"""Games: the one way a game is made, moved, ended and read, and the moments it announces.

Other features use games only through the names below. :class:`GameService` makes a game
(:meth:`~GameService.start`: a fresh deal, the day's deal or a race's shared deal; for an
account, a guest or the computer), places on it (:meth:`~GameService.place`, by its player or
the computer, with its credential), ends it (:meth:`~GameService.end`: a loss, by expiry or a
race's time limit), reveals a sealed one (:meth:`~GameService.reveal`) and reads it for a
viewer (:meth:`~GameService.read`, :meth:`~GameService.history`, :meth:`~GameService.load`,
:meth:`~GameService.summaries`). The features that keep figures of games subscribe to its
moments (:data:`HOOKS`). The app mounts :data:`router` and runs the expiry.
"""

from api.games.errors import (
    ChallengeGamePrivate,
    GameIsOver,
    GameNotFound,
    RaceGamePrivate,
    RaceNotOver,
    VersionConflict,
)
from api.games.etags import etag
from api.games.expiry import expire_periodically, expire_untouched
from api.games.hooks import HOOKS, GameFacts, GameHooks
from api.games.ids import existing_game, parse_game_id
from api.games.records import GameSummary, LoadedGame, placement_out
from api.games.routes import router
from api.games.schemas import GAME_EXAMPLE, PlacementOut, ReviewState
from api.games.service import GameService
from api.games.settings import GameSettings
from api.games.store import WonGame

__all__ = [
    "GAME_EXAMPLE",
    "HOOKS",
    "ChallengeGamePrivate",
    "GameFacts",
    "GameHooks",
    "GameIsOver",
    "GameNotFound",
    "GameService",
    "GameSettings",
    "GameSummary",
    "LoadedGame",
    "PlacementOut",
    "RaceGamePrivate",
    "RaceNotOver",
    "ReviewState",
    "VersionConflict",
    "WonGame",
    "etag",
    "existing_game",
    "expire_periodically",
    "expire_untouched",
    "parse_game_id",
    "placement_out",
    "router",
]
