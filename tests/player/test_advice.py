"""The computer player's advice: public information only, legal, complete and reproducible."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine import Card, Game, GameOver, Position, PublicView, Status
from engine.player import WIN_WEIGHT, Advice, Budget, Estimate, Policy, advise, choose

SMALL = Budget(placements=600)  # keeps every policy quick; stage 2 of ``best`` early on
POLICIES = list(Policy)


def played(deck: Sequence[Card], moves: int, chooser: random.Random) -> tuple[Game, list[Position]]:
    """A game on ``deck`` after ``moves`` random placements that do not end it."""
    game = Game(deck)
    positions: list[Position] = []
    while len(positions) < moves:
        options = [p for p in game.legal_placements() if not _ends(game, p)]
        position = chooser.choice(options or game.legal_placements())
        game.place(position)
        positions.append(position)
    return game, positions


def _ends(game: Game, position: Position) -> bool:
    return game.copy().place(position).status is not Status.IN_PROGRESS


def mid_game_view(seed: int = 5, moves: int = 6) -> PublicView:
    game, _ = played(Game.from_seed(seed).deck, moves, random.Random(seed))
    return game.public_view()


def with_stock_reversed(deck: Sequence[Card], keep: int) -> list[Card]:
    """The same deck with every card after the first ``keep`` in reverse order."""
    return [*deck[:keep], *reversed(deck[keep:])]


def assert_well_formed(advice: Advice, view: PublicView) -> None:
    positions = [estimate.position for estimate in advice.estimates]
    assert sorted(positions) == sorted(view.legal_placements)
    assert len(set(positions)) == len(positions)
    assert advice.placement in view.legal_placements
    for estimate in advice.estimates:
        assert 0.0 <= estimate.win_probability <= 1.0
        assert 0.0 <= estimate.expected_score <= 24 * estimate.win_probability + 1e-9
    if advice.policy is Policy.BEST:
        assert advice.placement == advice.estimates[0].position
    else:
        values = [WIN_WEIGHT * e.win_probability + e.expected_score for e in advice.estimates]
        assert values == sorted(values, reverse=True)


@pytest.mark.parametrize("policy", POLICIES)
def test_games_that_differ_only_in_the_stock_order_get_the_same_advice(policy: Policy) -> None:
    deck = Game.from_seed(11).deck
    moves = 7
    first, positions = played(deck, moves, random.Random(3))
    second = Game(with_stock_reversed(deck, moves + 1))
    for position in positions:
        second.place(position)
    assert first.deck != second.deck
    assert first.public_view() == second.public_view()

    one = advise(first.public_view(), policy=policy, seed=9, budget=SMALL)
    other = advise(second.public_view(), policy=policy, seed=9, budget=SMALL)
    assert one == other


def test_games_built_from_one_view_with_other_stocks_get_the_same_advice() -> None:
    view = mid_game_view()
    unseen = view.unseen_cards()
    shuffled = list(unseen)
    random.Random(1).shuffle(shuffled)
    views = [Game.from_view(view, stock).public_view() for stock in (unseen, shuffled)]
    assert views[0] == views[1] == view
    assert advise(views[0], budget=SMALL) == advise(views[1], budget=SMALL)


@pytest.mark.parametrize("policy", POLICIES)
def test_advice_is_a_legal_placement_and_every_legal_placement_is_estimated(
    policy: Policy,
) -> None:
    for seed, moves in [(0, 0), (5, 6), (8, 11)]:
        view = mid_game_view(seed, moves)
        advice = advise(view, policy=policy, budget=SMALL)
        assert advice.policy is policy
        assert_well_formed(advice, view)


def test_best_recommends_its_top_estimate() -> None:
    advice = advise(mid_game_view(), budget=SMALL)
    assert advice.placement == advice.estimates[0].position
    assert advice.simulated_placements > 0


@pytest.mark.parametrize("policy", POLICIES)
def test_advice_is_deterministic_for_a_seed(policy: Policy) -> None:
    view = mid_game_view(8, 9)
    assert advise(view, policy=policy, seed=4, budget=SMALL) == advise(
        view, policy=policy, seed=4, budget=SMALL
    )


def test_choose_plays_what_best_advises() -> None:
    view = mid_game_view(2, 5)
    placement, effort = choose(view, budget=SMALL)
    advice = advise(view, budget=SMALL)
    assert (placement, effort) == (advice.placement, advice.simulated_placements)


@pytest.mark.parametrize("policy", POLICIES)
def test_a_finished_game_gets_no_advice(policy: Policy) -> None:
    game = Game.from_seed(4)
    while not game.is_over:
        game.place(game.legal_placements()[-1])
    with pytest.raises(GameOver, match="the game is over"):
        advise(game.public_view(), policy=policy)
    with pytest.raises(GameOver):
        choose(game.public_view(), policy=policy)


def test_a_placement_that_loses_at_once_is_estimated_at_zero() -> None:
    for seed in range(200):
        game = Game.from_seed(seed)
        chooser = random.Random(seed)
        while not game.is_over:
            losing = [p for p in game.legal_placements() if _loses(game, p)]
            if losing:
                estimates = {
                    e.position: e for e in advise(game.public_view(), budget=SMALL).estimates
                }
                for position in losing:
                    assert estimates[position] == Estimate(position, 0.0, 0.0)
                return
            game.place(chooser.choice(game.legal_placements()))
    pytest.fail("no deal offered a placement that loses at once")


def _loses(game: Game, position: Position) -> bool:
    return game.copy().place(position).status is Status.LOST


def test_a_tiny_or_timed_budget_still_estimates_every_placement() -> None:
    view = mid_game_view()
    for budget in (Budget(placements=0), Budget(milliseconds=1), Budget(placements=None)):
        for policy in POLICIES:
            if policy is not Policy.BEST and budget.placements is None:
                continue  # uncapped rollouts take a while
            assert_well_formed(advise(view, policy=policy, budget=budget), view)


@pytest.mark.parametrize("kwargs", [{"placements": -1}, {"milliseconds": 0}])
def test_a_negative_budget_is_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="budget"):
        Budget(**kwargs)  # type: ignore[arg-type]


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(ValueError, match="clever"):
        advise(mid_game_view(), policy="clever")


def winning_position() -> tuple[PublicView, set[Position]]:
    """The first position, in greedy play over seeds 0.., where a placement wins at once."""
    for seed in range(500):
        game = Game.from_seed(seed)
        while not game.is_over:
            wins = {p for p in game.legal_placements() if game.copy().place(p).score is not None}
            if wins and len(wins) < len(game.legal_placements()):
                return game.public_view(), wins
            game.place(choose(game.public_view(), policy=Policy.GREEDY)[0])
    raise AssertionError("no greedy game came within one placement of a win")


@pytest.mark.parametrize("budget", [Budget(placements=0), SMALL, Budget(placements=None)])
def test_best_takes_a_win_when_one_is_on_offer(budget: Budget) -> None:
    view, wins = winning_position()
    advice = advise(view, budget=budget)
    assert advice.placement in wins
    score = 40 - view.placements_count - 1
    assert advice.estimates[0] == Estimate(advice.placement, 1.0, float(score))
