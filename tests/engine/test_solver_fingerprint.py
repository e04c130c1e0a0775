"""The hindsight solver's answers, fingerprinted: any change to what it finds, or to the effort
it spends finding it, shows here.

The other solver tests check that its answers are right; this one checks that they stay the same
answers, node for node, so that a change meant only to restructure or speed up the engine cannot
move the search (its move ordering, its pruning, its budget accounting) unnoticed. A change meant
to change the solver updates the table and says why in its commit:
``python -m tests.engine.test_solver_fingerprint`` prints it.
"""

from __future__ import annotations

import hashlib
import sys
from dataclasses import replace

import pytest

from engine import Game, Optimum, solve, solve_from
from engine.player import Policy, choose


def greedy_until(seed: int, piles: int) -> Game:
    """Deal ``seed`` played by the greedy policy until the grid holds ``piles`` piles."""
    game = Game.from_seed(seed)
    while len(game.piles) < piles:
        position, _ = choose(game.public_view(), policy=Policy.GREEDY)
        game.place(position)
    assert not game.is_over
    return game


def whole_deal(seed: int, nodes: int) -> Optimum:
    return solve(Game.from_seed(seed).deck, nodes=nodes)


# Each case: a name and how to get its answer. Whole deals within a budget (proven ones, and
# ones where the budget runs out and the levels above look for good wins), then positions late
# in a greedy game, solved without a budget.
CASES = {
    **{f"deal {seed}, 20000 nodes": (seed, 20_000) for seed in range(20)},
    **{f"deal {seed}, 60000 nodes": (seed, 60_000) for seed in (440, 784)},
}
POSITIONS = {
    f"deal {seed} at {piles} piles, {nodes or 'no'} node limit": (seed, piles, nodes)
    for seed, piles, nodes in [(0, 13, None), (4, 13, None), (18, 13, None), (2, 8, 50_000)]
}

# sha256 of each answer (first 16 hex digits).
EXPECTED: dict[str, str] = {
    "deal 0, 20000 nodes": "f1ce2054ea3ed751",
    "deal 1, 20000 nodes": "434436013f20501d",
    "deal 2, 20000 nodes": "7d4246df32b2d427",
    "deal 3, 20000 nodes": "ef94a510fde34206",
    "deal 4, 20000 nodes": "12d94926b1825d13",
    "deal 5, 20000 nodes": "757594d94403ffe1",
    "deal 6, 20000 nodes": "bf218dd010102fe3",
    "deal 7, 20000 nodes": "74d1cf2f046e2b3f",
    "deal 8, 20000 nodes": "5cb469b0827c6708",
    "deal 9, 20000 nodes": "11375ac837116e6e",
    "deal 10, 20000 nodes": "37c5aa31b2764d92",
    "deal 11, 20000 nodes": "1544767597b6c83c",
    "deal 12, 20000 nodes": "a61125166e837e68",
    "deal 13, 20000 nodes": "60ba10d349a2a7ae",
    "deal 14, 20000 nodes": "314267185e83ba13",
    "deal 15, 20000 nodes": "2ee2daac30dc3cc6",
    "deal 16, 20000 nodes": "7613f04d1ea53838",
    "deal 17, 20000 nodes": "1c91e6813d0bca03",
    "deal 18, 20000 nodes": "515df9dfb8487633",
    "deal 19, 20000 nodes": "0ebcce86aad88b62",
    "deal 440, 60000 nodes": "45d2f753e6b0e41e",
    "deal 784, 60000 nodes": "d5daf87a367b954a",
    "deal 0 at 13 piles, no node limit": "c7ddaa5f8d86db5e",
    "deal 4 at 13 piles, no node limit": "0978cd0034fa7409",
    "deal 18 at 13 piles, no node limit": "64decf60e430fa98",
    "deal 2 at 8 piles, 50000 node limit": "9d90dc9a4aad0524",
}


def describe(optimum: Optimum) -> str:
    line = " ".join(f"{p.row},{p.col}" for p in optimum.line)
    return f"{optimum.score} {optimum.proven} {optimum.upper_bound} {optimum.nodes} | {line}"


def answer(name: str) -> Optimum:
    if name in CASES:
        return whole_deal(*CASES[name])
    seed, piles, nodes = POSITIONS[name]
    return solve_from(greedy_until(seed, piles), nodes=nodes)


def fingerprint(name: str) -> str:
    return hashlib.sha256(describe(answer(name)).encode()).hexdigest()[:16]


def test_the_solver_finds_what_it_found() -> None:
    got = {name: fingerprint(name) for name in [*CASES, *POSITIONS]}
    changed = [name for name in got if got[name] != EXPECTED.get(name)]
    assert not changed, f"the solver now answers otherwise for {changed}"
    assert len(got) == len(EXPECTED)


@pytest.mark.parametrize("name", ["deal 1, 20000 nodes", "deal 440, 60000 nodes"])
def test_the_fingerprint_covers_the_line_and_the_effort(name: str) -> None:
    optimum = answer(name)
    assert describe(optimum) and optimum.line
    for altered in (
        replace(optimum, line=optimum.line[1:]),
        replace(optimum, nodes=optimum.nodes + 1),
    ):
        assert hashlib.sha256(describe(altered).encode()).hexdigest()[:16] != EXPECTED[name]


def main() -> None:
    """Print the table of hashes of the code as it is now."""
    print("EXPECTED: dict[str, str] = {")
    for name in [*CASES, *POSITIONS]:
        print(f'    "{name}": "{fingerprint(name)}",')
    print("}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
