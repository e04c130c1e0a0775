"""bench/fairplay.py plays, reviews and judges what it says, briefly (two deals, four players).
It runs as a command (the tests do not import ``bench/``): its games come back through
``--cache`` and its table's figures through ``--json``. Nothing here asserts the calibration's
goals, which need its 200 deals (docs/fairplay.md)."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest

from engine import Game, Position
from engine.fairplay import RULE, Decision, Rule, judge, review_game
from tests.bench.commands import read_json, run_script, succeeded

pytestmark = pytest.mark.slow

PLAYERS = ("best", "good", "greedy", "random")
SEEDS = (0, 8)  # greedy wins deal 8


def decisions_of(record: dict[str, Any]) -> list[Decision]:
    return [
        Decision(
            d["number"],
            d["legal"],
            Position(*d["played"]),
            {level: Position(*cell) for level, cell in d["chosen"].items()},
            d["loss"],
        )
        for d in record["decisions"]
    ]


def test_the_bench_reviews_every_win_and_rejudges_its_cache(tmp_path: Path) -> None:
    cache, figures = tmp_path / "games.jsonl", tmp_path / "figures.json"
    command = ("fairplay.py", "--seeds", "0,8", "--players", ",".join(PLAYERS), "--jobs", "1",
               "--cache", str(cache))  # fmt: skip
    out = succeeded(run_script(*command, "--json", str(figures)))
    records = [json.loads(line) for line in cache.read_text().splitlines()]
    assert sorted((r["player"], r["seed"]) for r in records) == sorted(
        (p, s) for p in PLAYERS for s in SEEDS
    )
    for record in records:
        game = Game.from_seed(record["seed"])
        for cell in record["placements"]:
            game.place((cell[0], cell[1]))
        assert game.is_over and game.score == record["score"]
        assert record["won"] == (game.score is not None)
        if record["won"]:
            assert record["verdict"] == judge(decisions_of(record)).verdict.value
    # The decisions kept are the review's: the same figures as engine.fairplay.review_game.
    by = {(r["player"], r["seed"]): r for r in records}
    for key in [("greedy", 8), ("best", 0)]:
        record = by[key]
        assert record["won"], key
        kept = judge(decisions_of(record))
        reviewed = review_game(Game.from_seed(record["seed"]).deck, record["placements"])
        assert (kept.verdict, kept.decisions, kept.agreement, kept.mean_loss) == (
            reviewed.verdict, reviewed.decisions, reviewed.agreement, reviewed.mean_loss
        )  # fmt: skip
    # The shipped best copies itself; its review reused the advice it played.
    assert by[("best", 0)]["verdict"] == "flagged" and by[("best", 0)]["reused_advice"] > 0
    assert by[("greedy", 8)]["verdict"] == "clean"
    summary = read_json(figures)
    players = summary["players"]
    assert list(players) == list(PLAYERS)
    for name in PLAYERS:
        mine = [r for r in records if r["player"] == name]
        wins = [r for r in mine if r["won"]]
        flagged = sum(r["verdict"] == "flagged" for r in wins)
        assert (players[name]["games"], players[name]["won"], players[name]["flagged"]) == (
            len(mine), len(wins), flagged
        )  # fmt: skip
        assert any(line.startswith(f"{name} ") for line in out.splitlines())
    assert summary["rule"]["agreement"] == RULE.agreement
    assert summary["review_cpu"]["reviews"] >= 1 and summary["review_cpu"]["max_s"] > 0
    assert "review CPU per game over " in out
    assert "goal met    greedy: no win flagged" in out

    # Run again: every game is in the cache, nothing is played, the same table is printed.
    again = succeeded(run_script(*command))
    assert again == out and len(cache.read_text().splitlines()) == len(records)

    # Re-judged under other thresholds: nothing flagged, or every win flagged.
    won = sum(players[name]["won"] for name in PLAYERS)
    lenient = tmp_path / "lenient.json"
    rejudge = ("fairplay.py", "--cache", str(cache), "--rejudge")
    succeeded(run_script(*rejudge, "--agreement", "1.01", "--best-agreement", "1.01",
                         "--close-loss", "-1", "--json", str(lenient)))  # fmt: skip
    assert sum(p["flagged"] for p in read_json(lenient)["players"].values()) == 0
    strict = tmp_path / "strict.json"
    succeeded(run_script(*rejudge, "--agreement", "0", "--best-agreement", "0",
                         "--min-decisions", "0", "--json", str(strict)))  # fmt: skip
    assert sum(p["flagged"] for p in read_json(strict)["players"].values()) == won > 0


def test_wrong_options_are_refused_and_every_threshold_is_an_option() -> None:
    usage = succeeded(run_script("fairplay.py", "--help"))
    for threshold in fields(Rule):
        assert f"--{threshold.name.replace('_', '-')} X" in usage
    for args, message in [
        (("--players", "best,nobody"), "unknown players ['nobody']"),
        (("--seeds", "a-b"), "seeds are like 0-199"),
        (("--rejudge",), "--rejudge reads --cache PATH"),
    ]:
        refused = run_script("fairplay.py", *args)
        assert refused.returncode == 2 and message in refused.stderr, (args, refused.stderr)
