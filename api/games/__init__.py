"""Games: the one way a game is made, moved, ended and read, and the moments it announces.

Other features use games only through the names below. :class:`GameService` makes a game
(:meth:`~GameService.start`: a fresh deal, the day's deal or a race's shared deal; for an
account, a guest or the computer), places on it (:meth:`~GameService.place`, by its player or
the computer, with its credential), ends it (:meth:`~GameService.end`: a loss, by expiry or a
race's time limit), reveals a sealed one (:meth:`~GameService.reveal`) and reads it for a
viewer (:meth:`~GameService.read`, :meth:`~GameService.history`, :meth:`~GameService.load`,
:meth:`~GameService.summaries`). The features that keep figures of games subscribe to its
moments (:data:`HOOKS`). The app mounts :data:`router` and runs the expiry.

The feature owns the ``games`` and ``placements`` tables (:mod:`api.games.tables`); no other
feature names them in SQL. What others read of them, each in one statement as they need it
(:mod:`api.games.queries`), is asked here: a player's games page (:func:`player_games`), a
game's live feed (:func:`game_feed`), the games in progress (:func:`games_in_progress`),
the games begun, moved or ended since a moment (:func:`listed_game`, :func:`listed_since`),
a day's challenge counts and board (:func:`challenge_counts`, :func:`challenge_board`),
and, for the boards' own statements, the join that says whether a won game is an
account's (:func:`with_registered`).
"""

from api.games.challenge_day import DAY_SCHEMA_PATTERN, parse_day
from api.games.errors import (
    ChallengeGamePrivate,
    ChallengeNotOpen,
    GameIsOver,
    GameNotFound,
    InvalidChallengeDate,
    RaceGamePrivate,
    RaceNotOver,
    VersionConflict,
)
from api.games.etags import etag
from api.games.expiry import expire_periodically, expire_untouched
from api.games.hooks import HOOKS, GameFacts, GameHooks
from api.games.ids import existing_game, parse_game_id
from api.games.queries import (
    ChallengeBoardKey,
    GameFeed,
    GameInProgress,
    GameState,
    ListedGame,
    PlayerGameRecord,
    PlayerGamesKey,
    challenge_board,
    challenge_counts,
    game_feed,
    games_in_progress,
    listed_game,
    listed_since,
    player_games,
    with_registered,
)
from api.games.records import GameSummary, LoadedGame, placement_out
from api.games.routes import router
from api.games.schemas import GAME_EXAMPLE, PlacementOut, ReviewState
from api.games.service import GameService
from api.games.settings import GameSettings
from api.games.store import PlacementRecord, WonGame

__all__ = [
    "DAY_SCHEMA_PATTERN",
    "GAME_EXAMPLE",
    "HOOKS",
    "ChallengeBoardKey",
    "ChallengeGamePrivate",
    "ChallengeNotOpen",
    "GameFacts",
    "GameFeed",
    "GameHooks",
    "GameInProgress",
    "GameIsOver",
    "GameNotFound",
    "GameService",
    "GameSettings",
    "GameState",
    "GameSummary",
    "InvalidChallengeDate",
    "ListedGame",
    "LoadedGame",
    "PlacementOut",
    "PlacementRecord",
    "PlayerGameRecord",
    "PlayerGamesKey",
    "RaceGamePrivate",
    "RaceNotOver",
    "ReviewState",
    "VersionConflict",
    "WonGame",
    "challenge_board",
    "challenge_counts",
    "etag",
    "existing_game",
    "expire_periodically",
    "expire_untouched",
    "game_feed",
    "games_in_progress",
    "listed_game",
    "listed_since",
    "parse_day",
    "parse_game_id",
    "placement_out",
    "player_games",
    "router",
    "with_registered",
]
