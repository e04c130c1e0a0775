"""bench/player_pairs.py compares the player the service runs, and counts what it says it
counts. It runs as a command (the tests do not import ``bench/``); its settings and deals
come back through ``--json``. Nothing here asserts a speed or a strength."""

from __future__ import annotations

import dataclasses
import inspect
import json
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Position
from engine.player import DEFAULT_PLACEMENTS, Budget, advise
from engine.player.search import DEFAULT_MODEL, Searcher
from tests.bench.commands import read_json, run_script, succeeded

PHASES = ("1-6", "7-12", "13-15", "full")


def pairs(tmp_path: Path, *args: str) -> tuple[str, Any]:
    """Run player_pairs.py on one process; its output and its ``--json`` figures."""
    figures = tmp_path / "pairs.json"
    out = succeeded(run_script("player_pairs.py", "--jobs", "1", *args, "--json", str(figures)))
    return out, read_json(figures)


def placements(deal: dict[str, Any]) -> list[Position]:
    return [Position(*position) for position in deal["placements"]]


def as_json(value: object) -> Any:
    return json.loads(json.dumps(value))


def test_an_empty_setting_is_the_service_player_and_decides_as_advise_does(
    tmp_path: Path,
) -> None:
    out, figures = pairs(tmp_path, "--dry-run", "--a", "")
    searcher = inspect.signature(Searcher).parameters
    assert figures["a"]["setting"] == figures["b"]["setting"]  # --b defaults to "" too
    setting = figures["a"]["setting"]
    assert setting["placements"] == DEFAULT_PLACEMENTS
    assert setting["moves"] == searcher["deepen_moves"].default
    assert setting["replies"] == searcher["deepen_replies"].default
    assert setting["model"] == as_json(dataclasses.asdict(DEFAULT_MODEL))
    assert setting["sampled_from"] > 16  # never sampled
    assert out.startswith(f"A: {DEFAULT_PLACEMENTS} placements, ")
    _, figures = pairs(tmp_path, "--first", "4", "--deals", "2", "--a", "placements=800",
                       "--b", "placements=50")  # fmt: skip
    for deal in figures["a"]["deals"]:
        game = Game.from_seed(deal["seed"])
        for placement in placements(deal):
            assert placement == advise(game.public_view(), budget=Budget(placements=800)).placement
            game.place(placement)
        assert game.is_over


def test_a_setting_names_the_effort_the_shape_and_model_fields(tmp_path: Path) -> None:
    text = "placements=40000, moves=3,replies=2,pile_cost=1.4,extra=0:1:2:3:4"
    out, figures = pairs(tmp_path, "--dry-run", "--b", text)
    setting = figures["b"]["setting"]
    assert (setting["placements"], setting["moves"], setting["replies"]) == (40000, 3, 2)
    model = dataclasses.replace(DEFAULT_MODEL, pile_cost=1.4, extra=(0.0, 1.0, 2.0, 3.0, 4.0))
    assert setting["model"] == as_json(dataclasses.asdict(model))
    assert "pile_cost=1.4" in setting["text"] and f"B: {setting['text']}" in out
    assert figures["a"]["setting"]["text"].endswith("default model")
    for wrong, message in [
        ("depth=3", "unknown setting 'depth'"),
        ("extra=1:2", "extra takes 5 numbers"),
        ("pile_cost", "is not name=value"),
        ("placements=many", "invalid literal"),
    ]:
        refused = run_script("player_pairs.py", "--dry-run", "--b", wrong)
        assert refused.returncode == 2 and message in refused.stderr, (wrong, refused.stderr)


def test_sampled_orders_only_reorder_late_decisions_and_play_the_same_twice(
    tmp_path: Path,
) -> None:
    plain = "placements=800"
    sampled = "placements=800,sampled_from=10,samples=6,sample_nodes=500"
    alone = "placements=800,sampled_from=10,sampled_moves=1,samples=6,sample_nodes=500"
    out, first = pairs(tmp_path, "--first", "5", "--deals", "1", "--a", plain, "--b", sampled)
    setting = first["b"]["setting"]
    assert (setting["sampled_from"], setting["sampled_moves"], setting["samples"]) == (10, 3, 6)
    assert "from 10 piles the best 3 by 6 sampled orders (500 solver placements" in out
    (searched,), (resampled,) = first["a"]["deals"], first["b"]["deals"]
    _, second = pairs(tmp_path, "--first", "5", "--deals", "1", "--a", alone, "--b", sampled)
    (one_candidate,), (again,) = second["a"]["deals"], second["b"]["deals"]
    # One candidate: nothing to rank, the search's choice stands.
    assert placements(one_candidate) == placements(searched)
    assert one_candidate["overruled"] == 0
    # The same orders in another process: the same game.
    assert placements(again) == placements(resampled)
    # The samples overrule the search in some positions, not all, and only from 10 piles on:
    # the two games agree until a decision taken on 10 piles or more.
    assert 0 < resampled["overruled"] < resampled["sampled"]
    game = Game.from_seed(5)
    for mine, theirs in zip(placements(searched), placements(resampled), strict=False):
        assert mine in game.legal_placements() and theirs in game.legal_placements()
        if mine != theirs:
            assert game.occupied_mask.bit_count() >= 10
            break
        game.place(mine)
    else:
        pytest.fail("the sampled orders never changed the game")
    game = Game.from_seed(5)
    for placement in placements(resampled):
        assert placement in game.legal_placements()
        game.place(placement)
    assert game.is_over


def test_the_same_setting_twice_differs_by_nothing_and_every_extra_card_is_counted(
    tmp_path: Path,
) -> None:
    _, figures = pairs(tmp_path, "--first", "30", "--deals", "4",
                       "--a", "placements=300", "--b", "placements=300")  # fmt: skip

    def played(name: str) -> list[dict[str, Any]]:  # everything but the CPU times
        return [{**deal, "cpu_ms": []} for deal in figures[name]["deals"]]

    assert played("a") == played("b")
    assert figures["difference"]["mean"] == figures["difference"]["error"] == 0.0
    assert len(figures["a"]["deals"]) == 4
    for deal in figures["a"]["deals"]:
        assert {phase for phase, _ in deal["onto_piles"]} <= set(PHASES)
        if deal["won"]:
            # 16 cards start the piles; every other card placed went onto a pile.
            assert len(deal["onto_piles"]) == 40 - deal["score"] - 16
            assert len(deal["cpu_ms"]) == len(deal["placements"]) == 40 - deal["score"]
        # After the grid is full there is no new pile to start: every such card is forced.
        assert all(forced for phase, forced in deal["onto_piles"] if phase == "full")


def test_a_lost_deal_scores_nothing_in_the_difference(tmp_path: Path) -> None:
    # A losing setting (it values nothing but the score and never fears face-down piles).
    reckless = "placements=50,win_weight=0,extra=0:0:0:0:0,win=1:1:1:1:1"
    _, figures = pairs(tmp_path, "--first", "0", "--deals", "6",
                       "--a", "placements=300", "--b", reckless)  # fmt: skip
    lost = [deal for deal in figures["b"]["deals"] if not deal["won"]]
    assert lost, "the reckless setting was meant to lose a deal"
    assert all(deal["score"] == 0 for deal in lost)
    a_scores = [deal["score"] for deal in figures["a"]["deals"]]
    b_scores = [deal["score"] for deal in figures["b"]["deals"]]
    assert len(a_scores) == len(b_scores) == 6
    difference = figures["difference"]
    assert difference["deals"] == [b - a for a, b in zip(a_scores, b_scores, strict=True)]
    assert difference["mean"] == pytest.approx((sum(b_scores) - sum(a_scores)) / 6)


def test_main_prints_both_settings_and_the_paired_difference() -> None:
    out = succeeded(
        run_script("player_pairs.py", "--first", "7", "--deals", "2", "--jobs", "1",
                   "--a", "placements=200", "--b", "placements=400")
    )  # fmt: skip
    assert out.startswith("deals 7-8, ")
    assert "A: 200 placements, stage 3 2 x 1, default model" in out
    assert "B: 400 placements" in out
    assert "cards put on a pile per won game" in out
    assert "B - A, deal by deal (a loss counts 0): " in out
    assert run_script("player_pairs.py", "--b", "depth=3").returncode == 2
