"""bench/model_calibration.py sets the model's value of each position the player reaches
against the deal's outcome, and its tables count what they say. Nothing here asserts a
strength."""

from __future__ import annotations

import math

import pytest

from bench import model_calibration, player_pairs
from bench.model_calibration import Deal, Sample, report
from bench.player_pairs import Setting
from engine import Game, Status
from engine.player.search import DEFAULT_MODEL


def test_the_model_estimates_a_position_from_its_counts() -> None:
    model = DEFAULT_MODEL
    assert model.estimate(0, 0, 16, 19) == (1.0, 21.0)  # won: the cards left
    assert model.estimate(5, 0, 12, 14) == (0.0, 0.0)  # more than four face down
    assert model.estimate(0, 0, 8, 33) == (0.0, 0.0)  # 7 cards left for 8 empty cells
    p, e = model.estimate(2, 1, 12, 14)
    assert p == pytest.approx(0.985 * 0.8)
    assert e == pytest.approx(p * (26 - 1.25 * 4 - 2.6 - 1.5))
    # A stuck pile counts only while there are face-down piles for it to be.
    assert model.estimate(1, 3, 12, 14)[0] == pytest.approx(0.995 * 0.8)


def test_each_sample_is_the_position_after_a_placement_that_left_the_game_going() -> None:
    setting = Setting.parse("placements=300")
    for seed in (3, 11):
        deal = model_calibration.play(seed, setting)
        game = Game.from_seed(seed)
        expected = []
        while not game.is_over:
            game.place(player_pairs.decide(game, setting))
            if game.is_over:
                break
            closed = sum(1 for pile in game.piles if not pile.face_up and len(pile.cards) == 4)
            piles, face_down, placed = len(game.piles), game.face_down_count, game.placements_count
            p, e = DEFAULT_MODEL.estimate(face_down, closed, piles, placed)
            expected.append(Sample(piles, face_down, placed, 40 * p + e))
        assert deal.samples == tuple(expected)
        assert deal.won == (game.status is Status.WON)
        assert deal.score == (game.score or 0)


def test_the_tables_count_outcome_minus_model_and_the_cards_after_a_full_grid() -> None:
    deals = [
        # Won with 20 left: outcome 60 on the search's scale.
        Deal(1, True, 20, (Sample(15, 0, 16, 61.0), Sample(16, 3, 17, 55.0))),
        Deal(2, True, 18, (Sample(15, 0, 16, 59.0), Sample(16, 3, 19, 52.0))),
        Deal(3, False, 0, (Sample(16, 3, 20, 50.0),)),
    ]
    lines = report(deals, Setting())
    assert lines[0] == "5 positions of 3 deals, 2 won"
    fifteen = next(line for line in lines if line.startswith("   15 "))
    assert "-1.00 ± 0.00 (   2)" in fifteen  # 60 - 61 and 58 - 59
    sixteen = next(line for line in lines if line.startswith("   16 "))
    # 60 - 55, 58 - 52 and 0 - 50: a mean of -13, an error of the three's spread / sqrt(3).
    error = math.sqrt(((5 + 13) ** 2 + (6 + 13) ** 2 + (-50 + 13) ** 2) / 2 / 3)
    assert f"-13.00 ± {error:4.2f} (   3)" in sixteen
    # Cards spent after the full grid: 40 - 17 - 20 = 3 and 40 - 19 - 18 = 3.
    assert lines[-1] == "  3 face down: 2 positions of won deals, mean 3.00; 1 of lost deals"
