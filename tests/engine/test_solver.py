"""The hindsight solver (engine.solver) against plain exhaustive search, and its promises:
every line replays to its score, the score never exceeds the upper bound, same input same
answer."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Game, Optimum, Position, Status, replay, solve, solve_from
from engine.grid import CELL_OF, POSITION, cells_of
from engine.player.policies import greedy_cell
from engine.solver import flips_can_clear
from tests.engine.factories import pile, state_dict


def exhaustive(game: Game, depth: int | None = None) -> int | None:
    """The best winning score from ``game`` by trying every legal placement, no pruning at all
    (within ``depth`` more placements when given); ``None`` when no line wins."""
    if game.status is Status.WON:
        return game.score
    if game.is_over or depth == 0:
        return None
    best = None
    for position in game.legal_placements():
        child = game.copy()
        child.place(position)
        score = exhaustive(child, None if depth is None else depth - 1)
        if score is not None and (best is None or score > best):
            best = score
    return best


def check_line(game: Game, optimum: Optimum) -> None:
    """The line of ``optimum`` replays from ``game`` to exactly its score."""
    if optimum.score is None:
        assert optimum.line == ()
        return
    played = game.copy()
    for position in optimum.line:
        played.place(position)
    assert played.status is Status.WON
    assert played.score == optimum.score


def greedy_until(seed: int, piles: int) -> Game | None:
    """Deal ``seed`` played by the greedy policy until the grid holds ``piles`` piles."""
    game = Game.from_seed(seed)
    while not game.is_over and len(game.piles) < piles:
        position = POSITION[greedy_cell(game.board())]
        assert position is not None
        game.place(position)
    return None if game.is_over else game


def near_end_position(seed: int, empty: int, left: int) -> Game:
    """A prepared position of deal ``seed``: its first cards stacked on ``16 - empty`` piles of a
    4 x 4 grid (cells left empty at random), ``left`` cards still to place, and some piles face
    down. Close enough to the end that exhaustive search can try every line."""
    rng = random.Random(seed)
    deck = [card.code for card in Game.from_seed(seed).deck]
    placed = 40 - left
    cells = [(row, col) for row in range(4) for col in range(4)]
    while True:
        holes = set(rng.sample(cells[1:], empty))  # (0, 0) always holds the first card
        layout = [cell for cell in cells if cell not in holes]
        if _connected(layout):
            break
    heights = [1] * len(layout)
    for _ in range(placed - len(layout)):
        heights[rng.choice([i for i, h in enumerate(heights) if h < 4])] += 1
    down = set(rng.sample(range(1, len(layout)), rng.randint(0, 3)))
    piles: list[dict[str, Any]] = []
    at = 0
    for i, ((row, col), height) in enumerate(zip(layout, heights, strict=True)):
        piles.append(pile(row, col, *deck[at : at + height], up=i not in down))
        at += height
    # (0, 0) holds deck[0] at its bottom, as in any real game.
    return Game.from_dict({"format": 1, "deck": deck, "placed": placed, "piles": piles})


def _connected(layout: list[tuple[int, int]]) -> bool:
    todo, seen = [layout[0]], {layout[0]}
    while todo:
        row, col = todo.pop()
        for near in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if near in layout and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(layout)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(("empty", "left"), [(0, 3), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)])
def test_optimum_equals_exhaustive_search_on_prepared_end_positions(
    seed: int, empty: int, left: int
) -> None:
    game = near_end_position(seed * 10 + empty, empty, left)
    optimum = solve_from(game, nodes=None)
    assert optimum.proven
    assert optimum.score == exhaustive(game)
    assert optimum.upper_bound == optimum.score
    check_line(game, optimum)


@pytest.mark.parametrize("seed", [0, 4, 8, 18, 27, 101])
def test_optimum_equals_exhaustive_search_a_few_placements_from_the_end_of_real_deals(
    seed: int,
) -> None:
    # Deals played by the greedy policy to 13 piles: the solver's optimum is what exhaustive
    # search finds within four placements whenever it lies within four placements.
    game = greedy_until(seed, 13)
    assert game is not None
    optimum = solve_from(game, nodes=None)
    assert optimum.proven
    check_line(game, optimum)
    depth = 4
    reach = 40 - game.placements_count - depth  # the lowest score within `depth` placements
    best = exhaustive(game, depth)
    if optimum.score is not None and optimum.score >= reach:
        assert best == optimum.score
    else:
        assert best is None


@pytest.mark.parametrize("seed", [2, 3, 5, 7, 9])
def test_optimum_equals_exhaustive_search_three_placements_before_the_end_of_an_optimal_line(
    seed: int,
) -> None:
    deck = Game.from_seed(seed).deck
    line = solve(deck).line
    game = replay(deck, line[:-3])
    optimum = solve_from(game, nodes=None)
    assert optimum.proven
    assert optimum.score == exhaustive(game, 4) == 40 - len(line)
    check_line(game, optimum)


@pytest.mark.parametrize(("seed", "empty", "left"), [(1, 1, 3), (1, 0, 3), (3, 1, 3)])
def test_a_prepared_position_without_a_winning_line_is_proven_unwinnable(
    seed: int, empty: int, left: int
) -> None:
    game = near_end_position(seed, empty, left)
    assert game.face_down_count == 3
    assert exhaustive(game) is None
    optimum = solve_from(game, nodes=None)
    assert (optimum.score, optimum.proven, optimum.upper_bound, optimum.line) == (
        None,
        True,
        None,
        (),
    )


def test_too_few_cards_for_the_empty_cells_is_unwinnable_at_once() -> None:
    game = near_end_position(3, empty=3, left=2)
    optimum = solve_from(game)
    assert (optimum.score, optimum.proven, optimum.upper_bound, optimum.line) == (
        None,
        True,
        None,
        (),
    )


@pytest.mark.parametrize("seed", range(12))
def test_every_line_replays_from_the_deal_to_its_score(seed: int) -> None:
    deck = Game.from_seed(seed).deck
    optimum = solve(deck, nodes=20_000)
    if optimum.score is not None:
        assert replay(deck, optimum.line).score == optimum.score
        assert all(isinstance(position, Position) for position in optimum.line)
    assert (
        optimum.upper_bound is None
        or optimum.score is None
        or (optimum.score <= optimum.upper_bound <= 24)
    )
    if optimum.proven:
        assert optimum.score == optimum.upper_bound
    assert optimum.nodes <= 20_000


def test_a_budget_too_small_to_prove_gives_a_bound_and_the_best_line_found() -> None:
    deck = Game.from_seed(4).deck  # level 0 (a score of 24) takes millions of placements
    optimum = solve(deck, nodes=5_000)
    assert not optimum.proven
    assert optimum.upper_bound == 24
    assert optimum.nodes <= 5_000
    if optimum.score is not None:
        assert optimum.score < 24
        assert replay(deck, optimum.line).score == optimum.score


def test_the_answer_is_deterministic() -> None:
    deck = [card.code for card in Game.from_seed(8).deck]
    assert solve(deck, nodes=30_000) == solve(deck, nodes=30_000)
    assert solve(deck, nodes=30_000) == solve([Game.from_seed(8).deck][0], nodes=30_000)


def test_solving_from_a_position_leaves_the_game_as_it_was() -> None:
    game = greedy_until(2, 8)
    assert game is not None
    before = game.to_dict()
    optimum = solve_from(game, nodes=50_000)
    assert game.to_dict() == before
    check_line(game, optimum)


def test_a_finished_game_has_nothing_left_to_choose() -> None:
    deck = Game.from_seed(1).deck
    won = replay(deck, solve(deck).line)
    assert solve_from(won) == Optimum(score=24, proven=True, upper_bound=24, line=(), nodes=0)


def test_flips_can_clear_never_rejects_a_position_won_by_new_piles_alone() -> None:
    # Along winning lines that start only new piles at the end, every position passes.
    for seed in range(6):
        deck = Game.from_seed(seed).deck
        optimum = solve(deck, nodes=50_000)
        if optimum.score is None:
            continue
        game = Game(deck)
        stacked = [False] * len(optimum.line)
        occupied: set[Position] = set()
        for i, position in enumerate(optimum.line):
            stacked[i] = position in occupied
            occupied.add(position)
        for i, position in enumerate(optimum.line):
            cells, face_up = game.board().bitboards()[:2]
            if cells and not any(stacked[i:]):
                assert flips_can_clear(cells, face_up)
            game.place(position)


def test_flips_can_clear_rejects_an_odd_square() -> None:
    square = [CELL_OF[(r, c)] for r in (0, 1) for c in (0, 1)]
    occupied = sum(1 << cell for cell in square)
    for down in square:
        assert not flips_can_clear(occupied, occupied & ~(1 << down))
    assert cells_of(occupied) == sorted(square)


@pytest.mark.parametrize(("seed", "expected"), [(440, 22), (784, 20)])
def test_when_the_exact_search_runs_out_the_levels_above_give_a_win_below_the_bound(
    seed: int, expected: int
) -> None:
    # Neither deal is proven within this budget (no line scoring 24 found, none ruled out);
    # the levels above still give a win, and a line that replays to it.
    deck = Game.from_seed(seed).deck
    optimum = solve(deck, nodes=60_000)
    assert (optimum.score, optimum.proven, optimum.upper_bound) == (expected, False, 24)
    assert optimum.nodes <= 60_000
    assert replay(deck, optimum.line).score == expected


def test_a_win_found_above_a_level_that_ran_out_may_need_fewer_extra_placements() -> None:
    # 13 piles, one face down, 26 cards to come: a late position of one of the computer
    # player's games. With 3,000 placements the exact search runs out while asking for 21;
    # of the levels above, tried in slices, the one allowing four extra placements (19) finds
    # a line first, and that line needs only three: it scores 20, which is what counts.
    upcoming = "9C 2S 3D AD 7D 6S 9H 2D 8H 6H 8D 3C 3S 5H 4D 7C 9D 8S AH 8C AC 7S 10C 3H 10H 2C"
    piles = [
        pile(-3, -2, "9S"), pile(-3, -1, "6D"), pile(-3, 0, "5S"), pile(-3, 1, "4H"),
        pile(-2, -2, "5D"), pile(-2, -1, "6C"), pile(-2, 1, "10D", "10S"),
        pile(-1, -1, "4C", up=False), pile(-1, 0, "2H"),
        pile(0, -2, "AS"), pile(0, -1, "7H"), pile(0, 0, "4S"), pile(0, 1, "5C"),
    ]  # fmt: skip
    game = Game.from_dict(state_dict(piles, upcoming.split()))
    for nodes in (2_000, 3_000, 4_000):
        optimum = solve_from(game, nodes=nodes)
        assert optimum.score is not None
        assert optimum.upper_bound is not None and optimum.score <= optimum.upper_bound <= 23
        check = game.copy()
        for position in optimum.line:
            check.place(position)
        assert check.score == optimum.score
    assert (optimum.score, optimum.proven) == (20, True)
