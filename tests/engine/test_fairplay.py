"""engine.fairplay: the rule's thresholds on constructed decisions, the review of whole games
played by the shipped computer and by greedy, and the timing figures."""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from engine import Game, Position
from engine.fairplay import (
    LEVELS,
    RULE,
    Decision,
    Rule,
    Verdict,
    judge,
    review_game,
    timing_of,
)
from engine.player.advice import choose

A, B = Position(0, 0), Position(0, 1)


def decisions(count: int, *, best: int = 0, good: int = 0, loss: float = 1.0) -> list[Decision]:
    """``count`` decisions, the first ``best`` of them best's choice and the first ``good``
    good's, each losing ``loss``."""
    return [
        Decision(
            number=n + 2,
            legal=3,
            played=A,
            chosen={"best": A if n < best else B, "good": A if n < good else B},
            loss=loss,
        )
        for n in range(count)
    ]


def threshold(level: str, rule: Rule = RULE) -> float:
    return rule.best_agreement if level == "best" else rule.agreement


def test_agreement_with_a_level_at_its_threshold_flags_and_just_below_does_not() -> None:
    count = 40
    for level in LEVELS:
        at = math.ceil(threshold(level) * count)  # the fewest matches reaching the threshold
        flagged = judge(decisions(count, **{level: at}))
        assert flagged.verdict is Verdict.FLAGGED, flagged
        assert flagged.matches[level] == at and flagged.agreement[level] == round(at / count, 4)
        assert (
            f"{at} of {count} decisions were the computer's choice at level {level}"
            in (flagged.reasons[0])
        )
        clean = judge(decisions(count, **{level: at - 1}))
        assert clean.verdict is Verdict.CLEAN and clean.reasons == ()
    # The reference's threshold is the lower: good's play is nearer a careful person's.
    assert RULE.best_agreement < RULE.agreement
    assert judge(decisions(count, best=count, good=count)).verdict is Verdict.FLAGGED


def test_too_few_decisions_say_nothing_even_at_full_agreement() -> None:
    few = judge(decisions(RULE.min_decisions - 1, best=99, good=99, loss=0.0))
    assert few.verdict is Verdict.CLEAN and few.decisions == RULE.min_decisions - 1
    assert few.agreement == dict.fromkeys(LEVELS, 1.0)
    enough = judge(decisions(RULE.min_decisions, best=99, good=99, loss=0.0))
    assert enough.verdict is Verdict.FLAGGED


def test_close_play_flags_only_with_both_little_loss_and_agreement_with_best() -> None:
    count = 50
    agreeing = math.ceil(RULE.close_agreement * count)
    assert agreeing / count < RULE.best_agreement  # below the agreement rule on its own
    close = judge(decisions(count, best=agreeing, loss=RULE.close_loss))
    assert close.verdict is Verdict.FLAGGED
    assert close.mean_loss == RULE.close_loss
    assert f"gave away {RULE.close_loss:.2f} per decision" in close.reasons[0]
    # More loss, or less agreement, and the same play is clean.
    assert judge(decisions(count, best=agreeing, loss=RULE.close_loss + 0.01)).verdict is (
        Verdict.CLEAN
    )
    assert judge(decisions(count, best=agreeing - 1, loss=0.0)).verdict is Verdict.CLEAN
    # Agreement with good does not count here: a careful person meets good's choice often.
    assert judge(decisions(count, good=agreeing, loss=0.0)).verdict is Verdict.CLEAN


def test_a_rule_given_is_the_rule_applied_and_recorded() -> None:
    played = decisions(20, best=19, loss=0.5)  # 95 % with best
    at, above = replace(RULE, best_agreement=0.95), replace(RULE, best_agreement=0.96)
    assert judge(played, rule=at).verdict is Verdict.FLAGGED
    assert judge(played, rule=above).verdict is Verdict.CLEAN
    assert judge(played, rule=above).rule == above
    assert judge(played, rule=Rule(min_decisions=21)).verdict is Verdict.CLEAN
    nothing = judge([])
    assert (nothing.decisions, nothing.mean_loss, nothing.verdict) == (0, None, Verdict.CLEAN)


def play(seed: int, policy: str) -> list[tuple[int, int]]:
    game = Game.from_seed(seed)
    played: list[tuple[int, int]] = []
    while not game.is_over:
        position, _ = choose(game.public_view(), policy=policy)
        played.append((position.row, position.col))
        game.place(position)
    assert game.score is not None, f"{policy} was meant to win deal {seed}"
    return played


@pytest.mark.parametrize("seed", [0, 1])
def test_the_shipped_best_is_flagged_on_its_wins(seed: int) -> None:
    evidence = review_game(Game.from_seed(seed).deck, play(seed, "best"))
    assert evidence.verdict is Verdict.FLAGGED
    assert evidence.agreement["best"] == 1.0 and evidence.mean_loss == 0.0
    assert evidence.decisions >= RULE.min_decisions


@pytest.mark.parametrize("seed", [8, 101])  # two of greedy's rare wins
def test_greedy_wins_are_clean(seed: int) -> None:
    evidence = review_game(Game.from_seed(seed).deck, play(seed, "greedy"))
    assert evidence.verdict is Verdict.CLEAN, evidence
    assert evidence.decisions >= RULE.min_decisions
    assert evidence.mean_loss is not None and evidence.mean_loss > RULE.close_loss


def test_timing_of_gives_the_gaps_between_placements() -> None:
    start = datetime(2026, 1, 1, tzinfo=UTC)
    gaps = [2.0, 4.0, 0.5, 6.0, 0.25]
    placed = [start + timedelta(seconds=sum(gaps[: i + 1])) for i in range(len(gaps))]
    timing = timing_of(start, placed)
    assert timing is not None
    assert timing.placements == 5
    assert timing.median_seconds == 2.0 and timing.fastest_seconds == 0.25
    assert timing.under_one_second == 2
    mean = sum(gaps) / 5
    spread = (sum((g - mean) ** 2 for g in gaps) / 5) ** 0.5
    assert timing.variation == round(spread / mean, 3)
    # A fixed pause has no variation; a clock step backwards counts as no time.
    steady = timing_of(start, [start + timedelta(seconds=3 * i) for i in range(1, 6)])
    assert steady is not None and steady.variation == 0.0 and steady.under_one_second == 0
    back = timing_of(start, [start - timedelta(seconds=1), start + timedelta(seconds=1)])
    assert back is not None and back.fastest_seconds == 0.0 and back.median_seconds == 1.0
    assert timing_of(start, []) is None
