"""Fair-play review: did a won game follow the computer player's advice too closely to be a
person's own play?

The service ships the strongest player of the game (:mod:`engine.player`), so a script can
play its advice through the ordinary API and post scores no person reaches. This module
judges a game from its placements alone, as :mod:`engine.analysis` does, and gives a verdict
with its evidence; the service (``api.fairplay``) keeps a flagged game off the public boards.

Only **decisions** count: placements with more than one legal cell (a forced placement, such
as the first, says nothing about who chose it). For each decision the review asks the
computer what it would have played at each shipped level that searches (:data:`LEVELS`:
``good`` and ``best``), and estimates every legal placement with the ``best`` search, so that
a placement's **loss** is what it gave away by that search's own measure
(``WIN_WEIGHT * win probability + expected score``, the value the search maximises, clamped
at 0). The signals:

* **agreement** with a level: the share of decisions where the placement made is that
  level's choice. The shipped levels are deterministic, so a script copying one agrees on
  every decision, and a copy with a few random placements on nearly every one.
* **mean loss** per decision: how close the play is to the search's own values, whatever
  budget chose it. A search at a budget the service does not ship agrees less with either
  level (32-44 % on the measured deals) yet gives away little.

The rule (:func:`judge`, thresholds in :data:`RULE`) combines them; ``bench/fairplay.py``
calibrates it on players that see the advice and players that do not, and
``docs/fairplay.md`` gives its figures and says what it cannot catch. The timing of the
placements (:class:`Timing`) is evidence for the moderators, not part of the rule: a script
can wait like a person, and a quick person plays in a second.

The review is deterministic: the same deck and placements give the same evidence (the
``best`` search does not sample and is bounded by an effort budget, not a clock).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from engine.cards import Card
from engine.game import Game, PublicView
from engine.grid import Position
from engine.player.advice import (
    DEFAULT_PLACEMENTS,
    GOOD_PLACEMENTS,
    WIN_WEIGHT,
    Budget,
    Policy,
    advise,
)

__all__ = [
    "LEVELS",
    "REFERENCE",
    "RULE",
    "Decision",
    "Evidence",
    "Rule",
    "Timing",
    "Verdict",
    "decide",
    "judge",
    "review_game",
    "timing_of",
]


class Verdict(StrEnum):
    CLEAN = "clean"
    FLAGGED = "flagged"


# The levels whose choices are compared with the player's, with the effort each is asked at:
# both exactly as the service ships them (``good`` at 100 placements per decision, ``best``
# and the hint at 10,000), so that a script copying either agrees on every decision.
# ``best`` at 3,000 would cost a third of the CPU but is another player: on deals 0-199 it
# agrees with the shipped ``best`` on 56-80 % of the decisions of its wins (docs/fairplay.md).
REFERENCE = Budget(placements=DEFAULT_PLACEMENTS)
LEVELS: dict[str, Budget] = {
    "good": Budget(placements=GOOD_PLACEMENTS),
    "best": REFERENCE,
}


@dataclass(frozen=True, slots=True)
class Decision:
    """One placement that had a choice: what was played, what each level would have played,
    and the value it lost by the reference search's estimates."""

    number: int  # 1 for the first placement
    legal: int  # legal placements, at least 2
    played: Position
    chosen: dict[str, Position]  # level -> its choice
    loss: float  # >= 0


def decide(number: int, view: PublicView, played: Position) -> Decision | None:
    """The review of one placement made from ``view``: None if it had no choice.

    One call per placement, so that a caller can spread a game's review over steps (the
    service's runner keeps a heartbeat between them)."""
    best = advise(view, policy=Policy.BEST, budget=REFERENCE)
    if len(best.estimates) < 2:
        return None
    values = {e.position: WIN_WEIGHT * e.win_probability + e.expected_score for e in best.estimates}
    chosen = {"best": best.placement}
    for level, budget in LEVELS.items():
        if level != "best":
            chosen[level] = advise(view, policy=Policy.BEST, budget=budget).placement
    loss = max(0.0, values[best.estimates[0].position] - values[played])
    return Decision(number, len(best.estimates), played, chosen, round(loss, 6))


@dataclass(frozen=True, slots=True)
class Timing:
    """How long the player took over each placement, from the game's start (seconds)."""

    placements: int
    median_seconds: float
    fastest_seconds: float
    # The spread of the intervals relative to their mean: a person's thinking time varies
    # from card to card (often above 0.5); a fixed pause gives nearly 0.
    variation: float
    under_one_second: int


def timing_of(started: datetime, placed: Sequence[datetime]) -> Timing | None:
    """The timing figures of placements made at ``placed`` in a game started at ``started``;
    None without placements."""
    moments = [started, *placed]
    gaps = [max(0.0, (b - a).total_seconds()) for a, b in itertools.pairwise(moments)]
    if not gaps:
        return None
    mean = statistics.fmean(gaps)
    variation = statistics.pstdev(gaps) / mean if mean > 0 else 0.0
    return Timing(
        placements=len(gaps),
        median_seconds=round(statistics.median(gaps), 3),
        fastest_seconds=round(min(gaps), 3),
        variation=round(variation, 3),
        under_one_second=sum(1 for gap in gaps if gap < 1.0),
    )


@dataclass(frozen=True, slots=True)
class Rule:
    """The thresholds of :func:`judge`. docs/fairplay.md gives the figures behind each
    (``bench/fairplay.py``, deals 0-199); the defaults here are the calibrated ones."""

    # Fewer decisions than this say too little to flag anyone. No win on the measured deals
    # had fewer than 15, so it only guards hand-made games.
    min_decisions: int = 8
    # Agreement with a level other than the reference (``good``) at or above this is that
    # level's play. It is near total because ``good``'s small search mostly plays the careful
    # placement a thoughtful person finds too: the ``lookahead`` stand-in agreed with it on
    # up to 90 % of a win's decisions, where ``good`` itself agrees on all of them (it is
    # deterministic) and ``best`` at 300 placements, which plays like it, on 89-100 %.
    agreement: float = 0.95
    # Agreement with the reference (``best``) at or above this. People meet ``best``'s choice
    # far less often (no player that never saw the advice passed 48 %), while every copy of
    # ``best`` with a tenth of random placements agreed on 79 % or more, with a quarter on
    # 65 % or more, and ``best`` at 3,000 placements on 50-94 %.
    best_agreement: float = 0.60
    # A search at another budget: little value given away per decision *and* agreement with
    # the reference above a person's usual. ``best`` at 3,000 gives away 0.06 per decision
    # at the median; the least a player that never saw the advice gave away on a win was
    # 0.16, and then it agreed with best on 48 %.
    close_loss: float = 0.10
    close_agreement: float = 0.45


RULE = Rule()


@dataclass(frozen=True, slots=True)
class Evidence:
    """A game's review: the figures the rule read and its verdict, with its reasons in words."""

    verdict: Verdict
    reasons: tuple[str, ...]
    decisions: int
    agreement: dict[str, float]  # level -> share of decisions (0..1)
    matches: dict[str, int]  # level -> decisions where the placement was that level's choice
    mean_loss: float | None  # value lost per decision, by the reference's estimates
    timing: Timing | None = None
    rule: Rule = field(default=RULE)


def judge(
    decisions: Sequence[Decision], timing: Timing | None = None, rule: Rule = RULE
) -> Evidence:
    """The verdict on a game from its decisions (see the module docstring)."""
    count = len(decisions)
    matches = {
        level: sum(1 for d in decisions if d.chosen.get(level) == d.played) for level in LEVELS
    }
    agreement = {level: round(m / count, 4) if count else 0.0 for level, m in matches.items()}
    mean_loss = round(statistics.fmean(d.loss for d in decisions), 4) if count else None
    reasons: list[str] = []
    if count >= rule.min_decisions:
        for level, share in agreement.items():
            threshold = rule.best_agreement if level == "best" else rule.agreement
            if share >= threshold:
                reasons.append(
                    f"{matches[level]} of {count} decisions were the computer's choice at "
                    f"level {level} ({share:.0%}; the rule flags {threshold:.0%} or more)"
                )
        reference = agreement.get("best", 0.0)
        if (
            not reasons
            and mean_loss is not None
            and mean_loss <= rule.close_loss
            and reference >= rule.close_agreement
        ):
            reasons.append(
                f"the placements gave away {mean_loss:.2f} per decision by the computer's own "
                f"estimates (the rule flags {rule.close_loss:.2f} or less) while agreeing with "
                f"the computer at level best on {reference:.0%} of {count} decisions (the rule "
                f"flags {rule.close_agreement:.0%} or more together with it)"
            )
    verdict = Verdict.FLAGGED if reasons else Verdict.CLEAN
    return Evidence(verdict, tuple(reasons), count, agreement, matches, mean_loss, timing, rule)


def review_game(
    deck: Sequence[Card | str],
    positions: Sequence[tuple[int, int]],
    timing: Timing | None = None,
    rule: Rule = RULE,
) -> Evidence:
    """Review a whole game played on ``deck`` (each placement checked by the rules).

    >>> from engine import Game
    >>> review_game(Game.from_seed(0).deck, [(0, 0), (0, 1)]).decisions
    1
    """
    game = Game(deck)
    decisions: list[Decision] = []
    for number, (row, col) in enumerate(positions, start=1):
        view = game.public_view()
        made = game.place((row, col)).position
        decision = decide(number, view, made)
        if decision is not None:
            decisions.append(decision)
    return judge(decisions, timing, rule)
