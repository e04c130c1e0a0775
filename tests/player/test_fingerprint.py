"""The computer player's decisions, fingerprinted: any change to what it plays or estimates
shows here.

Each deal is played to its end, every decision taken from the public view with an effort budget
(simulated placements, never a clock, so the same on every machine), and everything the advice
says is written down: the placement, the effort spent, and each legal placement's rounded
estimates. A deal's record is hashed; the table below holds the hashes of the code as it was when
the table was written. A change to the engine that should not change the player (a refactoring,
a faster rule) must leave every hash as it is. A change meant to change the player updates the
table, and says why in its commit: ``python -m tests.player.test_fingerprint`` prints it.

``best`` runs at a small budget on twenty deals (its first two stages: the analytic leaf and one
chance step) and at the default budget on one (its third stage, which only a larger budget pays
for); ``greedy`` and ``random`` run their Monte Carlo rollouts on a few deals, which exercise
the redeal of the unseen cards.
"""

from __future__ import annotations

import hashlib
import sys

import pytest

from engine import Game
from engine.player import DEFAULT_PLACEMENTS, Advice, Budget, Policy, advise

SMALL = Budget(placements=1_500)
DEFAULT = Budget(placements=DEFAULT_PLACEMENTS)
ROLLOUTS = Budget(placements=1_000)

# (policy, budget, deals) of each fingerprinted run.
RUNS: dict[str, tuple[Policy, Budget, range]] = {
    "best-small": (Policy.BEST, SMALL, range(20)),
    "best-default": (Policy.BEST, DEFAULT, range(100, 101)),
    "greedy": (Policy.GREEDY, ROLLOUTS, range(200, 204)),
    "random": (Policy.RANDOM, ROLLOUTS, range(300, 304)),
}

# sha256 of each deal's record (first 16 hex digits), by run and deal.
EXPECTED: dict[str, dict[int, str]] = {
    "best-small": {
        0: "517bccb5c4d8f4ac",
        1: "be210eaf7bdced23",
        2: "2b6fdd53549ca20e",
        3: "83c8a1ea5eb51746",
        4: "42a80c34f7c4ab96",
        5: "35f2187754afbb0c",
        6: "2bc9d46ec86a32e5",
        7: "746f71e05ebb1dea",
        8: "918b629437c7fa7f",
        9: "a78615741c5dc2a3",
        10: "f2ed037e3ad6d89f",
        11: "72063506febcc856",
        12: "ec490fecb2e8830b",
        13: "a1a3b6d7852bcfa9",
        14: "9c62b1fc2aaaab51",
        15: "c99773b59cb6f251",
        16: "2a059a7463c9ca61",
        17: "0acd3ca0bb2fc184",
        18: "2e10d14aa45c6cfa",
        19: "f497a873eae9199e",
    },
    "best-default": {
        100: "99f917fe8e7339f9",
    },
    "greedy": {
        200: "98d34ef84d852235",
        201: "0b7e1f101dbf671d",
        202: "8efa17feae2c97c3",
        203: "3bc12606cc88bf25",
    },
    "random": {
        300: "452c5ff3b5f5462f",
        301: "56dbfefd79789016",
        302: "85d5bf9c40a5ea2b",
        303: "8e26a868429e01d2",
    },
}


def describe(advice: Advice) -> str:
    """One line for one decision: everything the advice says."""
    estimates = " ".join(
        f"{e.position.row},{e.position.col}:{e.win_probability!r}:{e.expected_score!r}"
        for e in advice.estimates
    )
    placement = advice.placement
    return f"{placement.row},{placement.col} {advice.simulated_placements} | {estimates}"


def record(policy: Policy, budget: Budget, seed: int) -> list[str]:
    """Deal ``seed`` played to its end by ``policy``, one line per decision, then the end."""
    game = Game.from_seed(seed)
    lines = []
    while not game.is_over:
        decision_seed = seed * 64 + game.placements_count  # as the simulation command draws
        advice = advise(game.public_view(), policy=policy, seed=decision_seed, budget=budget)
        lines.append(describe(advice))
        game.place(advice.placement)
    lines.append(f"{game.status.value} {game.end_reason} {game.score}")
    return lines


def fingerprint(policy: Policy, budget: Budget, seed: int) -> str:
    text = "\n".join(record(policy, budget, seed))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def fingerprints(run: str) -> dict[int, str]:
    policy, budget, deals = RUNS[run]
    return {seed: fingerprint(policy, budget, seed) for seed in deals}


@pytest.mark.parametrize("run", list(RUNS))
def test_the_player_decides_and_estimates_as_it_did(run: str) -> None:
    got = fingerprints(run)
    changed = sorted(seed for seed in got if got[seed] != EXPECTED[run].get(seed))
    assert not changed, f"{run}: the player now decides or estimates otherwise on deals {changed}"
    assert len(got) == len(EXPECTED[run])


def test_the_fingerprint_sees_a_changed_decision() -> None:
    # The record covers the placement itself, not only the estimates.
    policy, budget, deals = RUNS["best-small"]
    lines = record(policy, budget, deals[0])
    first = lines[0]
    assert first.startswith("0,0 ")
    assert fingerprint(policy, budget, deals[0]) == EXPECTED["best-small"][deals[0]]
    altered = "\n".join(["0,1" + first[3:], *lines[1:]])
    assert hashlib.sha256(altered.encode()).hexdigest()[:16] != EXPECTED["best-small"][deals[0]]


def main() -> None:
    """Print the table of hashes of the code as it is now (to paste above, when the player is
    meant to change)."""
    print("EXPECTED: dict[str, dict[int, str]] = {")
    for run in RUNS:
        print(f'    "{run}": {{')
        for seed, digest in fingerprints(run).items():
            print(f'        {seed}: "{digest}",')
        print("    },")
    print("}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
