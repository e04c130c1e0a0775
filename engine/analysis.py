"""Placement review: how good each placement of a game was, judged from what the player knew.

Each placement is judged from the **public** view of its moment (the grid and the current card,
never the order of the stock), by the computer player's ``best`` policy
(:func:`engine.player.advice.advise`): its advice gives an estimate (win probability, expected
score with a loss counted 0) for every legal placement, so the placement made and the advised
one are compared by one search, on one scale.

Definitions (the README's "Game analysis" states the same):

* **best**: the advised placement (``advice.estimates[0]``) as the reference.
* **loss**: ``max(0, best - played)``, for the win probability and for the expected score
  separately. The search ranks placements by ``40 * p + e`` at its deepest stage, so a
  placement it ranked lower may show a slightly higher win probability (a shallower estimate,
  or more score traded for safety); such a placement has lost nothing on that measure, hence
  the clamp: a loss is never negative.
* **label**, by the win-probability loss ``L`` (a probability, 0..1):

  =============  ==========================================
  ``best``       the placement is the advised one (``L = 0``)
  ``good``       ``L < 0.01``
  ``inaccuracy`` ``0.01 <= L < 0.03``
  ``mistake``    ``0.03 <= L < 0.10``
  ``blunder``    ``L >= 0.10``
  =============  ==========================================

  lichess's thresholds (5, 10 and 15 points of win %) are too coarse here: the computer
  player wins about 99 % of deals, so from most positions every sensible placement keeps a
  win probability above 0.95, and a placement that costs one point of win % gives away as
  much as the player loses over a whole game. Reasonable alternatives lose 0.05-1 point; a
  placement that loses the game at once loses close to 100.
* **accuracy** of a placement: lichess's formula on the win-% loss ``d = 100 * L``,
  ``103.1668100711649 * exp(-0.04354415386753951 * d) - 3.166924740191411 + 1`` (the ``+ 1``
  is lichess's "uncertainty bonus"), clamped to 0..100: 100 for no loss, 96.6 for one point,
  64.6 for ten, 0 from about 60 on. The game's accuracy is the arithmetic mean
  over the placements that had a choice (a *forced* placement, with one legal cell, such as
  the first, says nothing about the player and is left out); ``None`` if none had one.

The review is deterministic: the same deck, placements, seed and budget give the same review
(the ``best`` policy does not sample, and an effort budget, not a clock, bounds it).

>>> from engine import Game
>>> game = Game.from_seed(0)
>>> review(game.deck, [(0, 0), (0, 1)], budget=Budget(placements=200)).placements[0].label
<Label.BEST: 'best'>
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.cards import Card
from engine.game import Game, PublicView
from engine.grid import Position
from engine.player.advice import Budget, Estimate, Policy, advise
from engine.solver import Optimum

__all__ = [
    "DEFAULT_BUDGET",
    "THRESHOLDS",
    "Label",
    "PlacementReview",
    "Question",
    "Review",
    "at_least_played",
    "label_for",
    "placement_accuracy",
    "questions",
    "review",
    "review_placement",
    "summarise",
]


class Label(StrEnum):
    """How a placement is rated, from best to worst."""

    BEST = "best"
    GOOD = "good"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The lowest win-probability loss of each label below "best" (see the module docstring), worst
# first so that the first threshold a loss reaches names its label.
THRESHOLDS: tuple[tuple[float, Label], ...] = (
    (0.10, Label.BLUNDER),
    (0.03, Label.MISTAKE),
    (0.01, Label.INACCURACY),
    (0.0, Label.GOOD),
)

# The effort of one placement's advice: the hint's default.
DEFAULT_BUDGET = Budget(placements=4_000)


def label_for(win_probability_loss: float, *, advised: bool) -> Label:
    """The label of a placement that lost ``win_probability_loss`` (0..1).

    >>> label_for(0.0, advised=True), label_for(0.02, advised=False)
    (<Label.BEST: 'best'>, <Label.INACCURACY: 'inaccuracy'>)
    """
    if advised:
        return Label.BEST
    for threshold, label in THRESHOLDS:
        if win_probability_loss >= threshold:
            return label
    raise ValueError(f"a loss is never negative, not {win_probability_loss}")


def placement_accuracy(win_probability_loss: float) -> float:
    """lichess's accuracy of a move, on the win-% loss (``100 * win_probability_loss``).

    >>> placement_accuracy(0.0), placement_accuracy(0.01), placement_accuracy(1.0)
    (100.0, 96.604, 0.0)
    """
    loss = 100.0 * win_probability_loss
    raw = 103.1668100711649 * math.exp(-0.04354415386753951 * loss) - 3.166924740191411 + 1
    return round(min(100.0, max(0.0, raw)), 4)


@dataclass(frozen=True, slots=True)
class Question:
    """One placement to review: what the player saw (``view``) and what they did."""

    number: int  # 1 for the first placement
    view: PublicView
    played: Position


@dataclass(frozen=True, slots=True)
class PlacementReview:
    """The review of one placement. ``played`` and ``advised`` are estimated by one search."""

    number: int
    card: Card
    played: Estimate
    advised: Estimate
    legal_placements: int
    win_probability_loss: float
    expected_score_loss: float
    label: Label
    accuracy: float

    @property
    def forced(self) -> bool:
        """One legal placement: no choice, nothing to judge."""
        return self.legal_placements == 1


@dataclass(frozen=True, slots=True)
class Review:
    """A game's review: every placement's, and the game's accuracy (``None`` if no
    placement had a choice)."""

    placements: tuple[PlacementReview, ...]
    accuracy: float | None

    def counts(self) -> dict[Label, int]:
        """How many placements got each label (every label present, best first)."""
        counted = dict.fromkeys(Label, 0)
        for placement in self.placements:
            counted[placement.label] += 1
        return counted


def questions(deck: Sequence[Card | str], positions: Sequence[tuple[int, int]]) -> list[Question]:
    """Replay the placements on the deck (each one checked by the rules) and return, for
    each, the public view before it and the placement made."""
    return list(_questions(deck, positions))


def _questions(
    deck: Sequence[Card | str], positions: Sequence[tuple[int, int]]
) -> Iterator[Question]:
    game = Game(deck)
    for number, position in enumerate(positions, start=1):
        view = game.public_view()
        result = game.place(position)
        yield Question(number, view, result.position)


def review_placement(
    question: Question, *, seed: int = 0, budget: Budget = DEFAULT_BUDGET
) -> PlacementReview:
    """Review one placement from its public view (see the module docstring)."""
    advice = advise(question.view, policy=Policy.BEST, seed=seed, budget=budget)
    advised = advice.estimates[0]
    played = next(e for e in advice.estimates if e.position == question.played)
    win_loss = round(max(0.0, advised.win_probability - played.win_probability), 6)
    score_loss = round(max(0.0, advised.expected_score - played.expected_score), 6)
    assert question.view.current_card is not None  # a placement was made from this view
    return PlacementReview(
        number=question.number,
        card=question.view.current_card,
        played=played,
        advised=advised,
        legal_placements=len(advice.estimates),
        win_probability_loss=win_loss,
        expected_score_loss=score_loss,
        label=label_for(win_loss, advised=played.position == advised.position),
        accuracy=placement_accuracy(win_loss),
    )


def summarise(placements: Sequence[PlacementReview]) -> Review:
    """The game's review from its placements' reviews (in order)."""
    judged = [p.accuracy for p in placements if not p.forced]
    accuracy = round(sum(judged) / len(judged), 2) if judged else None
    return Review(tuple(placements), accuracy)


def review(
    deck: Sequence[Card | str],
    positions: Sequence[tuple[int, int]],
    *,
    seed: int = 0,
    budget: Budget = DEFAULT_BUDGET,
) -> Review:
    """Review every placement of a game played on ``deck``.

    >>> from engine import Game
    >>> result = review(Game.from_seed(1).deck, [(0, 0)], budget=Budget(placements=100))
    >>> [p.label.value for p in result.placements], result.accuracy
    (['best'], None)
    """
    return summarise(
        [review_placement(q, seed=seed, budget=budget) for q in questions(deck, positions)]
    )


def at_least_played(
    optimum: Optimum, positions: Sequence[tuple[int, int]], score: int | None
) -> Optimum:
    """The hindsight optimum, raised to the game's own score if the search, stopped by its
    budget, found less: a won game's placements are themselves a line reaching its score.

    >>> unsolved = Optimum(score=None, proven=False, upper_bound=24, line=(), nodes=10)
    >>> at_least_played(unsolved, [(0, 0)], 12).score
    12
    """
    if score is None or (optimum.score is not None and optimum.score >= score):
        return optimum
    line = tuple(Position(row, col) for row, col in positions)
    proven = optimum.upper_bound is not None and optimum.upper_bound <= score
    return Optimum(score, proven, optimum.upper_bound, line, optimum.nodes)
