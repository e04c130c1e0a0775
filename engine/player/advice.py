"""Hints from the public state: which placement to make, and what each one is worth.

>>> from engine import Game
>>> advice = advise(Game.from_seed(0).public_view())
>>> advice.placement
Position(row=0, col=0)
>>> len(advice.estimates), advice.estimates[0].win_probability > 0.9
(1, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.board import Board
from engine.cards import Card
from engine.errors import GameOver
from engine.game import Game, PublicView, Status
from engine.grid import POSITION, Position
from engine.player import policies
from engine.player.search import DEFAULT_MODEL, Searcher

__all__ = [
    "DEFAULT_BUDGETS",
    "DEFAULT_PLACEMENTS",
    "LEVELS",
    "WIN_WEIGHT",
    "Advice",
    "Budget",
    "Estimate",
    "Level",
    "Policy",
    "advise",
    "choose",
]


class Policy(StrEnum):
    """How the computer player decides.

    * ``random``: a uniformly random legal placement.
    * ``greedy``: one step ahead, the placement leaving the fewest face-down piles; ties go to a
      new pile, then to the lowest pile.
    * ``best``: expectimax over the next cards' ranks (see :mod:`engine.player.search`).
    """

    RANDOM = "random"
    GREEDY = "greedy"
    BEST = "best"


@dataclass(frozen=True, slots=True)
class Budget:
    """How much work one decision may take.

    ``placements`` caps the placements simulated per decision (engine applies, one-step probes
    included); an effort cap gives the same advice on every machine. ``milliseconds`` caps the
    wall-clock time; when it runs out, ``best`` answers from its last complete search stage and
    ``random``/``greedy`` from the rollouts done so far, so the advice may then depend on the
    machine's speed. ``None`` means no cap of that kind.
    """

    placements: int | None = None
    milliseconds: float | None = None

    def __post_init__(self) -> None:
        if self.placements is not None and self.placements < 0:
            raise ValueError(f"budget placements must be >= 0, not {self.placements}")
        if self.milliseconds is not None and self.milliseconds <= 0:
            raise ValueError(f"budget milliseconds must be > 0, not {self.milliseconds}")


# The default effort of ``best``, in simulated placements per decision: the hint's default
# (``api.settings.Settings.hint_placements``) and what ``foursquare simulate --policy best``
# plays with, so that the strength the README reports is the strength a hint has. 10,000 pays
# for stage 3 (the selective third placement) in every position met on deals 2000-2199 (15,000
# and 40,000 played those 200 deals identically). 6,000 could not pay for it in the widest
# positions, which are few: on deals 0-999 the mean winning score went from 20.49 to 20.57
# (on deals 2000-2199 from 20.46 to 20.91) for about 12 % more CPU at the median decision
# (README, "The computer player").
DEFAULT_PLACEMENTS = 10_000

# The default effort per decision. For the one-step policies it pays for the Monte Carlo
# rollouts behind their estimates.
DEFAULT_BUDGETS: dict[Policy, Budget] = {
    Policy.RANDOM: Budget(placements=4_000),
    Policy.GREEDY: Budget(placements=20_000),
    Policy.BEST: Budget(placements=DEFAULT_PLACEMENTS),
}


class Level(StrEnum):
    """How strongly the computer plays as a racer: each level is a policy at an effort.

    * ``beginner``: ``greedy``, one step ahead (the placement that leaves the fewest face-down
      piles), with no look at the cards to come.
    * ``good``: ``best``'s search on a small budget (:data:`GOOD_PLACEMENTS` per decision).
    * ``best``: ``best`` at its default effort: the strength of a hint.
    """

    BEGINNER = "beginner"
    GOOD = "good"
    BEST = "best"


# The ``good`` level's effort per decision: it wins about five deals in six (``foursquare
# simulate --level good``), where ``best`` wins nearly all.
GOOD_PLACEMENTS = 100

LEVELS: dict[Level, tuple[Policy, Budget]] = {
    Level.BEGINNER: (Policy.GREEDY, DEFAULT_BUDGETS[Policy.GREEDY]),
    Level.GOOD: (Policy.BEST, Budget(placements=GOOD_PLACEMENTS)),
    Level.BEST: (Policy.BEST, DEFAULT_BUDGETS[Policy.BEST]),
}


@dataclass(frozen=True, slots=True)
class Estimate:
    """What one legal placement is worth if the game then goes on with the same policy.

    ``expected_score`` is the mean score over all outcomes with a loss counted as 0 (so it is
    at most ``24 * win_probability``); the mean score of the wins alone is
    ``expected_score / win_probability``.
    """

    position: Position
    win_probability: float
    expected_score: float


@dataclass(frozen=True, slots=True)
class Advice:
    """A policy's placement and an estimate for every legal placement, best first.

    For ``best`` the estimates come in the order the search prefers the placements, so the
    ``placement`` is ``estimates[0]``. For ``random`` and ``greedy`` they are ranked by
    ``WIN_WEIGHT * win_probability + expected_score``, and the policy's own ``placement`` may
    be any of them. ``simulated_placements`` is the effort spent.
    """

    placement: Position
    estimates: tuple[Estimate, ...]
    policy: Policy
    simulated_placements: int


WIN_WEIGHT = DEFAULT_MODEL.win_weight

# The search's model underrates the chance of losing: over 5,676 decisions of self-play (deals
# 21000-21199, none of them in the measured range) its win estimates averaged 0.9969 where
# 0.9882 of the games were won. ``best`` reports ``1 - LOSS_SCALE * (1 - p)``, which matches
# that average; it only rescales, so it never changes the ranking or the choice.
LOSS_SCALE = 4.0


def advise(
    view: PublicView,
    *,
    policy: Policy | str = Policy.BEST,
    seed: int = 0,
    budget: Budget | None = None,
) -> Advice:
    """Recommend a placement for ``view`` and estimate every legal placement.

    Only the public state is used: the order of the unseen cards is unknown to the player and
    only their identities enter the estimates. The same ``view``, ``policy``, ``seed`` and
    effort budget always give the same advice (``best`` does not sample, so it ignores the
    seed). Raises :class:`engine.errors.GameOver` for a finished game.

    >>> from engine import Game
    >>> advise(Game.from_seed(3).public_view(), policy="greedy").placement
    Position(row=0, col=0)
    """
    policy = Policy(policy)
    board, unseen = _board_from(view)
    budget = budget or DEFAULT_BUDGETS[policy]
    max_seconds = budget.milliseconds / 1000 if budget.milliseconds is not None else None
    if policy is Policy.BEST:
        result = Searcher(board, unseen).run(budget.placements, max_seconds)
        order = result.ranking()
        cells = result.cells
        wins, scores = _calibrated(result.win, result.score)
        cell = cells[order[0]]
        effort = result.placements
    else:
        rng = random.Random(seed)
        if policy is Policy.RANDOM:
            cell = policies.random_cell(board, rng)
            chooser: policies.Chooser = policies.random_cell
        else:
            cell = policies.greedy_cell(board)
            chooser = policies.greedy_playout_cell
        deadline = None if max_seconds is None else time.perf_counter() + max_seconds
        rollout = policies.rollouts(board, chooser, rng, budget.placements, deadline)
        cells = rollout.cells
        wins, scores = list(rollout.win), list(rollout.score)
        effort = rollout.placements
        order = sorted(
            range(len(cells)), key=lambda i: (-(WIN_WEIGHT * wins[i] + scores[i]), cells[i])
        )
    estimates = tuple(
        Estimate(_position(cells[i]), round(wins[i], 6), round(scores[i], 6)) for i in order
    )
    return Advice(_position(cell), estimates, policy, effort)


def choose(
    view: PublicView,
    *,
    policy: Policy | str = Policy.BEST,
    seed: int = 0,
    budget: Budget | None = None,
) -> tuple[Position, int]:
    """Only the placement the policy makes, and the simulated placements it took.

    For ``best`` this is :func:`advise`'s placement; ``random`` and ``greedy`` skip the rollouts
    that :func:`advise` runs for their estimates. This is what the simulation command plays.
    """
    policy = Policy(policy)
    if policy is Policy.BEST:
        advice = advise(view, policy=policy, seed=seed, budget=budget)
        return advice.placement, advice.simulated_placements
    board, _ = _board_from(view)
    if policy is Policy.RANDOM:
        return _position(policies.random_cell(board, random.Random(seed))), 0
    return _position(policies.greedy_cell(board)), board.legal_mask().bit_count()


def _board_from(view: PublicView) -> tuple[Board, list[Card]]:
    """A board with the view's grid and its unseen cards in card order (never the real stock),
    and those cards."""
    if view.status is not Status.IN_PROGRESS or view.current_card is None:
        raise GameOver(f"the game is over ({view.status.value}); there is no placement to advise")
    unseen = view.unseen_cards()
    return Game.from_view(view, unseen).board(), unseen


def _calibrated(wins: Sequence[float], scores: Sequence[float]) -> tuple[list[float], list[float]]:
    """The search's estimates with the loss probability scaled by :data:`LOSS_SCALE` (and the
    expected score by the same factor as the win probability). Exact outcomes stay exact."""
    out_wins: list[float] = []
    out_scores: list[float] = []
    for win, score in zip(wins, scores, strict=True):
        calibrated = max(0.0, 1.0 - LOSS_SCALE * (1.0 - win))
        out_wins.append(calibrated)
        out_scores.append(score * calibrated / win if win > 0.0 else 0.0)
    return out_wins, out_scores


def _position(cell: int) -> Position:
    position = POSITION[cell]
    assert position is not None
    return position
