"""bench/player_pairs.py compares the player the service runs, and counts what it says it
counts. Nothing here asserts a speed or a strength."""

from __future__ import annotations

import dataclasses

import pytest

from bench import player_pairs
from bench.player_pairs import PHASES, Setting
from engine import Game
from engine.player import DEFAULT_PLACEMENTS, Budget, advise
from engine.player.search import DEFAULT_MODEL


def test_an_empty_setting_is_the_service_player_and_decides_as_advise_does() -> None:
    assert Setting.parse("") == Setting()
    assert Setting().placements == DEFAULT_PLACEMENTS
    setting = Setting.parse("placements=800")
    for seed in (4, 9):
        game = Game.from_seed(seed)
        while not game.is_over:
            expected = advise(game.public_view(), budget=Budget(placements=800)).placement
            assert player_pairs.decide(game, setting) == expected
            game.place(expected)


def test_a_setting_names_the_effort_the_shape_and_model_fields() -> None:
    setting = Setting.parse("placements=40000, moves=3,replies=2,pile_cost=1.4,extra=0:1:2:3:4")
    assert (setting.placements, setting.moves, setting.replies) == (40000, 3, 2)
    assert setting.model == dataclasses.replace(
        DEFAULT_MODEL, pile_cost=1.4, extra=(0.0, 1.0, 2.0, 3.0, 4.0)
    )
    assert "pile_cost=1.4" in str(setting)
    assert str(Setting()).endswith("default model")
    for wrong, message in [
        ("depth=3", "unknown setting 'depth'"),
        ("extra=1:2", "extra takes 5 numbers"),
        ("pile_cost", "is not name=value"),
        ("placements=many", "invalid literal"),
    ]:
        with pytest.raises(ValueError, match=message):
            Setting.parse(wrong)


def test_sampled_orders_only_reorder_late_decisions_and_play_the_same_twice() -> None:
    plain = Setting.parse("placements=800")
    alone = Setting.parse("placements=800,sampled_from=10,sampled_moves=1")
    sampled = Setting.parse("placements=800,sampled_from=10,samples=6,sample_nodes=500")
    assert (sampled.sampled_from, sampled.sampled_moves, sampled.samples) == (10, 3, 6)
    assert "from 10 piles the best 3 by 6 sampled orders (500 solver placements" in str(sampled)
    game = Game.from_seed(5)
    late = changed = 0
    while not game.is_over:
        expected = player_pairs.decide(game, plain)
        assert player_pairs.decide(game, alone) == expected  # one candidate: nothing to rank
        choice = player_pairs.decide(game, sampled)
        assert choice == player_pairs.decide(game, sampled)
        assert choice in game.legal_placements()
        if game.occupied_mask.bit_count() < 10:
            assert choice == expected
        else:
            late += 1
            changed += choice != expected
        game.place(choice)
    assert 0 < changed < late  # the samples overrule the search in some positions, not all


def test_the_same_setting_twice_differs_by_nothing_and_every_extra_card_is_counted() -> None:
    setting = Setting.parse("placements=300")
    report = player_pairs.run(30, 4, setting, setting, jobs=1)

    def played(name: str) -> list[player_pairs.Deal]:  # everything but the CPU times
        return [dataclasses.replace(deal, cpu_ms=()) for deal in report.deals[name]]

    assert played("a") == played("b")
    assert report.difference() == (0.0, 0.0)
    for deal in report.deals["a"]:
        assert {phase for phase, _ in deal.onto_piles} <= set(PHASES)
        if deal.won:
            # 16 cards start the piles; every other card placed went onto a pile.
            assert len(deal.onto_piles) == 40 - deal.score - 16
            assert len(deal.cpu_ms) == 40 - deal.score
        # After the grid is full there is no new pile to start: every such card is forced.
        assert all(forced for phase, forced in deal.onto_piles if phase == "full")


def test_a_lost_deal_scores_nothing_in_the_difference() -> None:
    # A losing setting (it values nothing but the score and never fears face-down piles).
    reckless = Setting.parse("placements=50,win_weight=0,extra=0:0:0:0:0,win=1:1:1:1:1")
    careful = Setting.parse("placements=300")
    report = player_pairs.run(0, 6, careful, reckless, jobs=1)
    lost = [deal for deal in report.deals["b"] if not deal.won]
    assert lost, "the reckless setting was meant to lose a deal"
    assert all(deal.score == 0 for deal in lost)
    mean, _ = report.difference()
    a_scores = [deal.score for deal in report.deals["a"]]
    b_scores = [deal.score for deal in report.deals["b"]]
    assert mean == pytest.approx((sum(b_scores) - sum(a_scores)) / 6)


def test_main_prints_both_settings_and_the_paired_difference(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert player_pairs.main(["--first", "7", "--deals", "2", "--jobs", "1", "--a",
                              "placements=200", "--b", "placements=400"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert out.startswith("deals 7-8, ")
    assert "A: 200 placements, stage 3 2 x 1, default model" in out
    assert "B: 400 placements" in out
    assert "cards put on a pile per won game" in out
    assert "B - A, deal by deal (a loss counts 0): " in out
    with pytest.raises(SystemExit):
        player_pairs.main(["--b", "depth=3"])
