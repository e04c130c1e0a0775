"""bench/model_calibration.py sets the model's value of each position the player reaches
against the deal's outcome, and its tables count what they say. It runs as a command (the
tests do not import ``bench/``): its deals come back through ``--json``, and its tables are
printed from hand-made deals through ``--deals-from``. Nothing here asserts a strength."""

from __future__ import annotations

import json
import math
from pathlib import Path

from engine import Game, Status
from engine.player import Budget, advise
from engine.player.search import DEFAULT_MODEL
from tests.bench.commands import read_json, run_script, succeeded


def test_each_sample_is_the_position_after_a_placement_that_left_the_game_going(
    tmp_path: Path,
) -> None:
    figures = tmp_path / "calibration.json"
    succeeded(
        run_script(
            "model_calibration.py", "--first", "3", "--deals", "2", "--jobs", "1",
            "--setting", "placements=300", "--json", str(figures),
        )
    )  # fmt: skip
    deals = read_json(figures)["deals"]
    assert [deal["seed"] for deal in deals] == [3, 4]
    for deal in deals:
        # A setting with only an effort is the service's player (tests/bench/test_player_pairs.py).
        game = Game.from_seed(deal["seed"])
        expected = []
        while not game.is_over:
            game.place(advise(game.public_view(), budget=Budget(placements=300)).placement)
            if game.is_over:
                break
            closed = sum(1 for pile in game.piles if not pile.face_up and len(pile.cards) == 4)
            piles, face_down, placed = len(game.piles), game.face_down_count, game.placements_count
            p, e = DEFAULT_MODEL.estimate(face_down, closed, piles, placed)
            expected.append(
                {"piles": piles, "face_down": face_down, "placed": placed, "model": 40 * p + e}
            )
        assert deal["samples"] == expected
        assert deal["won"] == (game.status is Status.WON)
        assert deal["score"] == (game.score or 0)


def sample(piles: int, face_down: int, placed: int, model: float) -> dict[str, object]:
    return {"piles": piles, "face_down": face_down, "placed": placed, "model": model}


def test_the_tables_count_outcome_minus_model_and_the_cards_after_a_full_grid(
    tmp_path: Path,
) -> None:
    deals = [
        # Won with 20 left: outcome 60 on the search's scale.
        (1, True, 20, [sample(15, 0, 16, 61.0), sample(16, 3, 17, 55.0)]),
        (2, True, 18, [sample(15, 0, 16, 59.0), sample(16, 3, 19, 52.0)]),
        (3, False, 0, [sample(16, 3, 20, 50.0)]),
    ]
    stored = tmp_path / "deals.json"
    stored.write_text(
        json.dumps(
            {
                "deals": [
                    {"seed": seed, "won": won, "score": score, "samples": samples}
                    for seed, won, score, samples in deals
                ]
            }
        )
    )
    out = succeeded(run_script("model_calibration.py", "--deals-from", str(stored)))
    header, *lines = out.splitlines()
    assert header.startswith(f"deals from {stored}: ")
    assert lines[0] == "5 positions of 3 deals, 2 won"
    fifteen = next(line for line in lines if line.startswith("   15 "))
    assert "-1.00 ± 0.00 (   2)" in fifteen  # 60 - 61 and 58 - 59
    sixteen = next(line for line in lines if line.startswith("   16 "))
    # 60 - 55, 58 - 52 and 0 - 50: a mean of -13, an error of the three's spread / sqrt(3).
    error = math.sqrt(((5 + 13) ** 2 + (6 + 13) ** 2 + (-50 + 13) ** 2) / 2 / 3)
    assert f"-13.00 ± {error:4.2f} (   3)" in sixteen
    # Cards spent after the full grid: 40 - 17 - 20 = 3 and 40 - 19 - 18 = 3.
    assert lines[-1] == "  3 face down: 2 positions of won deals, mean 3.00; 1 of lost deals"
