"""What happens elsewhere when a game is created, moves or ends: announced by the games
feature inside the transaction that stores the change, heard by whoever subscribed.

The features that keep figures of games (a player's stats, the leaderboards, the daily
challenge's counts, live events) subscribe once at start-up (:func:`api.app.subscribe_features`),
so that the games feature imports none of them and each keeps its own tables. A subscriber
runs in the game's transaction: its writes commit or roll back with the game's, so the
figures always equal a recount.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

from sqlalchemy.orm import Session

from api.core.database import Executor


@dataclass(frozen=True)
class GameFacts:
    """What a subscriber learns of a game that changed."""

    game_id: uuid.UUID
    player: str
    player_id: uuid.UUID | None  # None for a guest's game
    challenge_date: date | None  # the daily challenge it belongs to, if any
    assisted: bool
    placements: int  # placements made so far
    status: str
    score: int | None  # a won game's
    at: datetime  # when it was created, moved or ended
    sealed: bool = False  # a race's game, its race not over
    computer: bool = False  # the computer player's game: no person's figures, no board

    @property
    def reviewed(self) -> bool:
        """A person's win without hints: it reaches the public boards only once the
        fair-play review (:mod:`api.fairplay`) has found it clean, so the boards and the
        news of wins leave it to that review. An assisted win is on the listing with
        assisted games at once, as it says what helped it."""
        return self.score is not None and not self.assisted and not self.computer


Listener = Callable[[Session, GameFacts], None]


def _no_rank(session: Executor, game_id: uuid.UUID, assisted: bool) -> int | None:
    return None


@dataclass
class GameHooks:
    """The subscribers of each moment of a game, called in the order they subscribed."""

    created: list[Listener] = field(default_factory=list)
    # Each placement, and an end: told before the placement is stored, so that what they
    # notify rides on the storing statement (api.core.store.notify).
    moved: list[Listener] = field(default_factory=list)
    # Before an end is stamped: take the locks that order ends (a player's streaks follow
    # the order their games end in, a board's ties their finish order) and say the earliest
    # time the end may carry (None: any).
    ending: list[Callable[[Session, GameFacts], datetime | None]] = field(default_factory=list)
    ended: list[Listener] = field(default_factory=list)
    # A sealed game made public (its race is over), ended or not: what its end did not tell
    # the public (a board's entry, a win's news) is told now.
    revealed: list[Listener] = field(default_factory=list)
    # A won game's all-time rank, shown with it: the leaderboards' answer, once wired.
    rank: Callable[[Executor, uuid.UUID, bool], int | None] = field(default=_no_rank)
    wired: bool = False

    def announce(self, listeners: list[Listener], session: Session, facts: GameFacts) -> None:
        for listener in listeners:
            listener(session, facts)

    def earliest_end(self, session: Session, facts: GameFacts) -> datetime | None:
        """Run the ``ending`` subscribers; the latest of the times they ask the end to follow."""
        times = [moment for hook in self.ending if (moment := hook(session, facts)) is not None]
        return max(times, default=None)


# The one set of hooks of this process: the features subscribe to it when the app (or a
# command-line tool) starts, and the games feature announces through it.
HOOKS = GameHooks()
