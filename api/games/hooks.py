"""What happens elsewhere when a game is created, moves or ends: announced by the games
feature inside the transaction that stores the change, heard by whoever subscribed.

The features that keep figures of games (a player's stats, the leaderboards, the daily
challenge's counts, live events) subscribe once at start-up (:func:`api.app.subscribe_features`),
so that the games feature imports none of them and each keeps its own tables. A subscriber
runs in the game's transaction: its writes commit or roll back with the game's, so the
figures always equal a recount.

The order the subscribers run in is a lock order, so it is code here, not the order of the
calls that subscribe them: each subscriber names its :data:`Stage`, one subscriber a stage,
and every moment calls them in the order of :data:`STAGES`, whatever order they subscribed
in. Sorting by a declared stage rather than refusing a subscription out of order keeps the
order in one place (this module) instead of two that must agree (the stages and the calls);
a stage is a name rather than "after X" so that the games feature still names no feature.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal, get_args

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
Ending = Callable[[Session, GameFacts], datetime | None]
Rank = Callable[[Executor, uuid.UUID, bool], int | None]

# Where a subscriber runs among the others, at every moment of a game, first to last:
# - "player stats": a player's stats row is the first lock an end takes (their streaks
#   follow the order their games end in), everywhere, so two ends never wait on each other
#   in opposite orders;
# - "boards": then the count of wins of the score (a board's ties rank in finish order);
# - "news": the live events, told what the figures now say;
# - "review": a won game's fair-play review, queued once the boards have held it;
# - "races": a race's end follows its games' figures;
# - "tournaments": last, a tournament's standings: the end of a tournament's game takes its
#   tournament's row after every other lock of the end, and the tournaments' own writers
#   (a leave, the ticker's end) end their games before they take that row, so every path
#   takes it last. Only a sealed game's end looks (one indexed lookup): a placement, or a
#   public game's end, costs the tournaments nothing.
Stage = Literal["player stats", "boards", "news", "review", "races", "tournaments"]
STAGES: tuple[Stage, ...] = get_args(Stage)


def _no_rank(session: Executor, game_id: uuid.UUID, assisted: bool) -> int | None:
    return None


@dataclass(frozen=True)
class _Subscriber:
    """One feature's listeners to the moments of a game, each optional."""

    created: Listener | None = None
    # Each placement, and an end: told before the placement is stored, so that what they
    # notify rides on the storing statement (api.core.store.notify).
    moved: Listener | None = None
    # Before an end is stamped: take the locks that order ends and say the earliest time the
    # end may carry (None: any).
    ending: Ending | None = None
    ended: Listener | None = None
    # A sealed game made public (its race is over), ended or not: what its end did not tell
    # the public (a board's entry, a win's news) is told now.
    revealed: Listener | None = None
    # A won game's all-time rank, shown with it (one subscriber gives it: the leaderboards).
    rank: Rank | None = None


class GameHooks:
    """The subscribers of each moment of a game, called in the order of their stages."""

    def __init__(self) -> None:
        self._subscribers: dict[Stage, _Subscriber] = {}
        self.created: tuple[Listener, ...] = ()
        self.moved: tuple[Listener, ...] = ()
        self.ending: tuple[Ending, ...] = ()
        self.ended: tuple[Listener, ...] = ()
        self.revealed: tuple[Listener, ...] = ()
        self.rank: Rank = _no_rank
        self.wired = False

    def subscribe(
        self,
        stage: Stage,
        *,
        created: Listener | None = None,
        moved: Listener | None = None,
        ending: Ending | None = None,
        ended: Listener | None = None,
        revealed: Listener | None = None,
        rank: Rank | None = None,
    ) -> None:
        """Add a feature's listeners (:class:`_Subscriber`'s moments) at ``stage``. A stage
        taken twice, or a second rank, is refused (one feature a stage: the order between two
        at one stage would be their calls')."""
        if stage in self._subscribers:
            raise ValueError(f"the stage {stage!r} of a game's hooks is taken")
        if rank is not None and self.rank is not _no_rank:
            raise ValueError("a game's rank is given by one subscriber")
        self._subscribers[stage] = _Subscriber(created, moved, ending, ended, revealed, rank)
        ordered = [self._subscribers[each] for each in STAGES if each in self._subscribers]
        self.created = tuple(each.created for each in ordered if each.created)
        self.moved = tuple(each.moved for each in ordered if each.moved)
        self.ending = tuple(each.ending for each in ordered if each.ending)
        self.ended = tuple(each.ended for each in ordered if each.ended)
        self.revealed = tuple(each.revealed for each in ordered if each.revealed)
        self.rank = rank or self.rank

    def announce(self, listeners: tuple[Listener, ...], session: Session, facts: GameFacts) -> None:
        for listener in listeners:
            listener(session, facts)

    def earliest_end(self, session: Session, facts: GameFacts) -> datetime | None:
        """Run the ``ending`` subscribers; the latest of the times they ask the end to follow."""
        times = [moment for hook in self.ending if (moment := hook(session, facts)) is not None]
        return max(times, default=None)


# The one set of hooks of this process: the features subscribe to it when the app (or a
# command-line tool) starts, and the games feature announces through it.
HOOKS = GameHooks()
