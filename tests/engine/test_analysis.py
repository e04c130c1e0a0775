"""engine.analysis: the review of a game's placements from the public view of each moment."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, NotAdjacent, Position, Status, replay
from engine.analysis import (
    THRESHOLDS,
    Label,
    Review,
    at_least_played,
    label_for,
    placement_accuracy,
    questions,
    review,
)
from engine.player.advice import Budget, advise
from engine.solver import solve
from tests.support.examples import examples

SMALL = Budget(placements=300)


def _loses(game: Game, position: Position) -> bool:
    return game.copy().place(position).status is Status.LOST


@cache
def _played(seed: int, *, careless: float) -> tuple[tuple[str, ...], tuple[Position, ...]]:
    """A deal and placements on it: the advice's placement, or (with probability
    ``careless``) a random legal one, until the game ends."""
    game = Game.from_seed(seed)
    chooser = random.Random(seed)
    positions: list[Position] = []
    while not game.is_over:
        if chooser.random() < careless:
            position = chooser.choice(game.legal_placements())
        else:
            position = advise(game.public_view(), budget=SMALL).placement
        positions.append(game.place(position).position)
    return tuple(card.code for card in game.deck), tuple(positions)


@cache
def _reviewed(seed: int, careless: float) -> Review:
    deck, positions = _played(seed, careless=careless)
    return review(deck, positions, budget=SMALL)


@cache
def _blunder_game() -> tuple[tuple[str, ...], tuple[Position, ...]]:
    """A game that ends with a placement losing at once where another did not."""
    for seed in range(200):
        game = Game.from_seed(seed)
        positions: list[Position] = []
        while not game.is_over:
            legal = game.legal_placements()
            losing = [p for p in legal if _loses(game, p)]
            if losing and len(losing) < len(legal):
                positions.append(game.place(losing[0]).position)
                return tuple(card.code for card in game.deck), tuple(positions)
            positions.append(
                game.place(advise(game.public_view(), budget=SMALL).placement).position
            )
    pytest.fail("no deal offered a losing placement beside a safe one")


def test_the_same_game_gets_the_same_review() -> None:
    deck, positions = _played(3, careless=0.3)
    assert review(deck, positions, budget=SMALL) == review(deck, positions, budget=SMALL)


def test_every_label_follows_the_thresholds_and_no_loss_is_negative() -> None:
    seen: set[Label] = set()
    for seed in range(4):
        for careless in (0.0, 0.3):
            result = _reviewed(seed, careless)
            assert len(result.placements) == len(_played(seed, careless=careless)[1])
            for placement in result.placements:
                advised = placement.played.position == placement.advised.position
                assert placement.win_probability_loss >= 0
                assert placement.expected_score_loss >= 0
                assert placement.win_probability_loss == pytest.approx(
                    max(0.0, placement.advised.win_probability - placement.played.win_probability),
                    abs=1e-6,
                )
                assert placement.label is label_for(placement.win_probability_loss, advised=advised)
                if advised:
                    assert placement.label is Label.BEST
                    assert placement.win_probability_loss == 0
                    assert placement.accuracy == 100
                else:
                    floor = next(t for t, label in THRESHOLDS if label is placement.label)
                    assert placement.win_probability_loss >= floor
                assert 0 <= placement.accuracy <= 100
                seen.add(placement.label)
    assert Label.BEST in seen and len(seen) >= 2


def _check_labels(result: Review) -> None:
    for placement in result.placements:
        advised = placement.played.position == placement.advised.position
        assert placement.win_probability_loss >= 0 and placement.expected_score_loss >= 0
        if advised:
            assert placement.label is Label.BEST and placement.win_probability_loss == 0
            continue
        floors = [t for t, label in THRESHOLDS if placement.win_probability_loss >= t]
        expected = next(label for t, label in THRESHOLDS if t == floors[0])
        assert placement.label is expected


@settings(max_examples=examples(15), deadline=None)
@given(seed=st.integers(0, 10_000), choices=st.randoms(use_true_random=False))
def test_reviews_of_any_play_follow_the_thresholds(seed: int, choices: random.Random) -> None:
    """Random play on random deals (a random legal placement each time): every label is the
    one the thresholds give its loss, and no loss is negative."""
    game = Game.from_seed(seed)
    positions: list[Position] = []
    while not game.is_over and len(positions) < 12:
        positions.append(game.place(choices.choice(game.legal_placements())).position)
    _check_labels(review(game.deck, positions, budget=Budget(placements=100)))


@given(loss=st.floats(0, 1))
def test_a_loss_gets_the_label_of_the_highest_threshold_it_reaches(loss: float) -> None:
    label = label_for(loss, advised=False)
    reached = max(t for t, _ in THRESHOLDS if loss >= t)
    assert label is dict((t, name) for t, name in THRESHOLDS)[reached]
    assert label is not Label.BEST
    assert 0 <= placement_accuracy(loss) <= 100


def test_label_boundaries_are_the_stated_thresholds() -> None:
    cases = [
        (0.0, Label.GOOD),
        (0.0099, Label.GOOD),
        (0.01, Label.INACCURACY),
        (0.0299, Label.INACCURACY),
        (0.03, Label.MISTAKE),
        (0.0999, Label.MISTAKE),
        (0.10, Label.BLUNDER),
        (1.0, Label.BLUNDER),
    ]
    for loss, label in cases:
        assert label_for(loss, advised=False) is label
        assert label_for(loss, advised=True) is Label.BEST
    with pytest.raises(ValueError, match="never negative"):
        label_for(-0.01, advised=False)


def test_the_readme_states_the_thresholds_in_force() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Game analysis") :]
    rows = dict(re.findall(r"^\| `(\w+)` \| (.+?) \|$", section, re.MULTILINE))
    assert "choice" in rows["best"]
    bounds = {label: [float(x) for x in re.findall(r"\d+\.\d+", rows[label])] for label in rows}
    floors = {label.value: threshold for threshold, label in THRESHOLDS}
    assert bounds["good"] == [floors["inaccuracy"]]
    assert bounds["inaccuracy"] == [floors["inaccuracy"], floors["mistake"]]
    assert bounds["mistake"] == [floors["mistake"], floors["blunder"]]
    assert bounds["blunder"] == [floors["blunder"]]


def test_accuracy_falls_with_the_loss() -> None:
    losses = [0.0, 0.001, 0.01, 0.03, 0.1, 0.3, 0.6, 1.0]
    accuracies = [placement_accuracy(loss) for loss in losses]
    assert accuracies[0] == 100.0 and accuracies[-1] == 0.0
    assert accuracies == sorted(accuracies, reverse=True)


def test_a_placement_that_loses_at_once_beside_a_safe_one_is_a_blunder() -> None:
    deck, positions = _blunder_game()
    result = review(deck, positions, budget=SMALL)
    last = result.placements[-1]
    assert last.played.win_probability == 0.0 and last.played.expected_score == 0.0
    assert last.advised.win_probability > 0.1
    assert last.label is Label.BLUNDER
    assert last.accuracy < 100
    assert result.accuracy is not None and result.accuracy < 100
    assert result.counts()[Label.BLUNDER] >= 1
    assert sum(result.counts().values()) == len(positions)


def test_the_first_placement_is_forced_and_left_out_of_the_accuracy() -> None:
    deck, _ = _played(1, careless=0.0)
    only_first = review(deck, [(0, 0)], budget=SMALL)
    assert only_first.placements[0].forced and only_first.placements[0].label is Label.BEST
    assert only_first.accuracy is None


def test_a_review_uses_only_what_the_player_saw() -> None:
    """Two decks with the same first cards and the rest in another order: the placements
    made while only those cards were seen get the same review."""
    deck, positions = _played(5, careless=0.3)
    seen = 12
    rest = list(deck[seen:])
    random.Random(0).shuffle(rest)
    other = (*deck[:seen], *rest)
    first = review(deck, positions[:seen], budget=SMALL)
    second = review(other, positions[:seen], budget=SMALL)
    assert first == second


def test_questions_replay_the_game_under_the_rules() -> None:
    deck, positions = _played(2, careless=0.0)
    asked = questions(deck, positions)
    assert [q.number for q in asked] == list(range(1, len(positions) + 1))
    assert [q.played for q in asked] == list(positions)
    assert all(q.view.status is Status.IN_PROGRESS for q in asked)
    with pytest.raises(NotAdjacent):
        questions(deck, [(0, 0), (3, 3)])


def test_the_optimum_is_never_below_the_games_own_score() -> None:
    """A search stopped by its budget may find less than the player scored; the game's own
    line is then the best known, and it replays to its score."""
    deck, positions = _played(1, careless=0.0)
    game = replay(deck, positions)
    assert game.score is not None
    starved = solve(deck, nodes=1)
    raised = at_least_played(starved, positions, game.score)
    assert raised.score is not None and raised.score >= game.score
    assert replay(deck, raised.line).score == raised.score
    assert raised.upper_bound == starved.upper_bound
    bound = starved.upper_bound
    assert raised.proven == (bound is not None and bound <= raised.score)
    found = solve(deck)
    assert at_least_played(found, positions, game.score) == (
        found if found.score is not None and found.score >= game.score else raised
    )
    assert at_least_played(starved, positions, None) == starved  # a lost game adds nothing
