"""The fair-play review's decisions, pinned: every choice and loss :func:`engine.fairplay.decide`
gave on a handful of whole games, recomputed and compared exactly.

The calibration in docs/fairplay.md (which players are flagged, at which thresholds) holds only
while the review answers as it did when it was measured, so a change meant to make the search
faster must leave every decision here as it is: each level's choice, the loss (rounded as it
is stored), and a digest of everything both levels' advice said (each legal placement's
estimates, the effort spent; :func:`tests.player.test_fingerprint.describe`), which catches a
change of the float arithmetic that has not yet moved a choice.

The games (``data/fairplay_decisions.json``) were played by ``bench/fairplay.py``'s players:
the shipped ``best``'s win on deal 0, ``best`` with 10 % random placements, ``lookahead`` and
``greedy`` on deal 8 (wins), and two lost games (``lookahead`` on deal 0 to the end of the
stock, ``random`` on deal 2). A change meant to change the review rewrites the expected
decisions from the same placements, and says why in its commit:
``python -m tests.engine.test_fairplay_golden --write``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Game, fairplay
from engine.player.advice import Advice
from tests.player.test_fingerprint import describe

DATA = Path(__file__).parent / "data" / "fairplay_decisions.json"


def load() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))
    return games


def review(seed: int, placements: list[list[int]]) -> list[dict[str, Any]]:
    """``decide`` for every placement of the game, with a digest of the advice it asked for."""
    asked: list[Advice] = []
    advise = fairplay.advise  # type: ignore[attr-defined]

    def recording(*args: Any, **kwargs: Any) -> Advice:
        advice: Advice = advise(*args, **kwargs)
        asked.append(advice)
        return advice

    game = Game.from_seed(seed)
    out: list[dict[str, Any]] = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(fairplay, "advise", recording)
        for number, (row, col) in enumerate(placements, start=1):
            view = game.public_view()
            made = game.place((row, col)).position
            asked.clear()
            decision = fairplay.decide(number, view, made)
            if decision is None:
                continue
            said = "\n".join(describe(advice) for advice in asked)
            out.append(
                {
                    "number": decision.number,
                    "legal": decision.legal,
                    "played": list(decision.played),
                    "chosen": {level: list(cell) for level, cell in decision.chosen.items()},
                    "loss": decision.loss,
                    "advice": hashlib.sha256(said.encode()).hexdigest()[:16],
                }
            )
    return out


GAMES = load()


@pytest.mark.parametrize("game", GAMES, ids=[f"{g['player']} deal {g['seed']}" for g in GAMES])
def test_the_review_decides_as_it_did(game: dict[str, Any]) -> None:
    got = review(game["seed"], game["placements"])
    assert len(got) == len(game["decisions"])
    for mine, expected in zip(got, game["decisions"], strict=True):
        assert mine == expected, f"placement {expected['number']} is now reviewed otherwise"


def test_the_pinned_games_cover_wins_losses_and_disagreement() -> None:
    decisions = [d for g in GAMES for d in g["decisions"]]
    assert len(decisions) >= 150
    assert {g["won"] for g in GAMES} == {True, False}
    # Some decisions where the player met neither level, some with a loss, and the levels apart.
    assert any(d["played"] not in d["chosen"].values() for d in decisions)
    assert any(d["loss"] > 0 for d in decisions)
    assert any(d["chosen"]["good"] != d["chosen"]["best"] for d in decisions)


def main() -> None:
    """Rewrite the expected decisions from the file's placements with the code as it is now."""
    games = load()
    for game in games:
        game["decisions"] = review(game["seed"], game["placements"])
    DATA.write_text(json.dumps(games, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {sum(len(g['decisions']) for g in games)} decisions to {DATA}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.engine.test_fairplay_golden --write")
    main()
