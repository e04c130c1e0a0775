"""Random play from random deals, checked after every placement against a reference.

The reference below is the rules of RULES.md written as plainly as possible, on dicts keyed by
``(row, col)``: no bit masks, no caches. Every step of every random game must agree with it.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from typing import Any

import pytest
from hypothesis import event, given, note, settings
from hypothesis import strategies as st

from engine import (
    CARDS,
    Game,
    GameOver,
    GridTooLarge,
    IllegalPlacement,
    NotAdjacent,
    NotOrigin,
    PileFull,
    Position,
    replay,
)
from tests.engine.factories import grid_of
from tests.support.examples import examples

Cell = tuple[int, int]
Grid = dict[Cell, dict[str, Any]]  # {(row, col): {"cards": [codes, bottom to top], "up": bool}}

ERROR_FOR_CODE: dict[str, type[IllegalPlacement]] = {
    "not_origin": NotOrigin,
    "not_adjacent": NotAdjacent,
    "grid_too_large": GridTooLarge,
    "pile_full": PileFull,
    "game_over": GameOver,
}

# ------------------------------------------------------------------ the reference rules


def rank(code: str) -> int:
    return 1 if code[:-1] == "A" else int(code[:-1])


def neighbours(cell: Cell) -> list[Cell]:
    row, col = cell
    return [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]


def fits_in_four_by_four(cells: list[Cell]) -> bool:
    rows = [row for row, _ in cells]
    cols = [col for _, col in cells]
    return max(rows) - min(rows) < 4 and max(cols) - min(cols) < 4


def ref_legal(grid: Grid) -> set[Cell]:
    """Where the current card may go while the game is in progress."""
    if not grid:
        return {(0, 0)}
    on_a_pile = {cell for cell, pile in grid.items() if len(pile["cards"]) < 4}
    new_piles = {
        n
        for cell in grid
        for n in neighbours(cell)
        if n not in grid and fits_in_four_by_four([*grid, n])
    }
    return on_a_pile | new_piles


def ref_rejection(grid: Grid, over: bool, cell: Cell) -> str:
    """The error code for an illegal placement (checked in this order)."""
    if over:
        return "game_over"
    if cell in grid:
        return "pile_full"
    if not grid:
        return "not_origin"
    if not any(n in grid for n in neighbours(cell)):
        return "not_adjacent"
    return "grid_too_large"


def ref_flips(grid: Grid, cell: Cell, card: str) -> dict[Cell, bool]:
    """The piles the placement flips, each with the side it shows afterwards."""
    flips: dict[Cell, bool] = {}
    row = [c for c in grid if c[0] == cell[0] and c != cell]
    col = [c for c in grid if c[1] == cell[1] and c != cell]
    for line in (row, col):
        face_up_ranks = [rank(grid[c]["cards"][-1]) for c in line if grid[c]["up"]]
        highest = all(rank(card) > r for r in face_up_ranks)
        lowest = all(rank(card) < r for r in face_up_ranks)
        if line and (highest or lowest):
            for c in line:
                flips[c] = not grid[c]["up"]
    return flips


def ref_place(grid: Grid, cell: Cell, card: str) -> dict[Cell, bool]:
    """Place ``card`` at ``cell`` in ``grid`` (changed in place); return the flips."""
    flips = ref_flips(grid, cell, card)
    pile = grid.setdefault(cell, {"cards": [], "up": True})
    pile["cards"].append(card)
    pile["up"] = True
    for c, up in flips.items():
        grid[c]["up"] = up
    return flips


def ref_face_down(grid: Grid) -> int:
    return sum(not pile["up"] for pile in grid.values())


def ref_outcome(grid: Grid, placed: int) -> tuple[str, str | None, int | None]:
    """(status, end reason, score) after ``placed`` placements."""
    if ref_face_down(grid) > 4:
        return "lost", "too_many_face_down", None
    if len(grid) == 16 and ref_face_down(grid) == 0:
        return "won", None, 40 - placed
    if placed == 40:
        return "lost", "stock_exhausted", None
    return "in_progress", None, None


# ------------------------------------------------------------------ checks


def check_against_reference(game: Game, grid: Grid, deck: list[str], placed: int) -> None:
    status, end_reason, score = ref_outcome(grid, placed)
    over = status != "in_progress"
    assert grid_of(game) == {c: (tuple(p["cards"]), p["up"]) for c, p in grid.items()}
    assert game.placements_count == placed
    assert (game.status, game.end_reason, game.score) == (status, end_reason, score)
    assert game.is_over == over
    assert game.face_down_count == ref_face_down(grid)
    assert game.stock_count == 40 - placed - (0 if over else 1)
    current = None if over else deck[placed]
    assert (game.current_card.code if game.current_card else None) == current
    assert set(game.legal_placements()) == (set() if over else ref_legal(grid))


def check_invariants(game: Game, deck: list[str]) -> None:
    """What must hold at any moment, whatever the reference says."""
    piles = grid_of(game)
    on_grid = [code for cards, _ in piles.values() for code in cards]
    current = [game.current_card.code] if game.current_card else []
    stock = deck[len(deck) - game.stock_count :]  # the hidden cards, drawn from the top
    assert Counter([*on_grid, *current, *stock]) == Counter(card.code for card in CARDS)
    assert sorted(on_grid) == sorted(deck[: game.placements_count])
    assert current == deck[game.placements_count : game.placements_count + len(current)]
    assert all(1 <= len(cards) <= 4 for cards, _ in piles.values())
    if piles:
        assert fits_in_four_by_four(list(piles))
        reached, todo = {(0, 0)}, deque([(0, 0)])
        assert (0, 0) in piles
        while todo:
            for n in neighbours(todo.popleft()):
                if n in piles and n not in reached:
                    reached.add(n)
                    todo.append(n)
        assert reached == set(piles)
    legal = game.legal_placements()
    assert legal == sorted(legal)


def check_round_trips(game: Game, positions: list[Cell]) -> None:
    again = Game.from_dict(game.to_dict())
    assert again == game
    assert replay(game.deck, positions) == game
    view = game.public_view()
    assert again.public_view() == view  # status, legal placements... recomputed on loading
    stock = game.deck[game.placements_count + (0 if game.is_over else 1) :]
    assert view.unseen_cards() == sorted(stock)
    assert Game.from_view(view, stock[::-1]).public_view() == view


def check_legal_accepted(game: Game) -> None:
    before = game.copy()
    for position in game.legal_placements():
        game.copy().place(position)
    assert game == before


def check_illegal_rejected(game: Game, grid: Grid, rnd: random.Random) -> None:
    before = game.copy()
    legal = set(game.legal_placements())
    window = [(r, c) for r in range(-5, 6) for c in range(-5, 6)]
    others = [cell for cell in window if cell not in legal]
    full = [cell for cell in grid if cell not in legal]
    for cell in [*rnd.sample(others, 5), *full]:
        expected = ref_rejection(grid, game.is_over, cell)
        with pytest.raises(ERROR_FOR_CODE[expected]) as raised:
            game.place(cell)
        assert raised.value.code == expected
        assert str(Position(*cell)) in str(raised.value)
    assert game == before


# ------------------------------------------------------------------ choosing moves


def choose(style: str, game: Game, rnd: random.Random) -> Cell:
    """A legal position: any ("random"), or one leaving the fewest face-down piles ("careful"),
    preferring new piles among those ("builder", which sometimes wins)."""
    options = game.legal_placements()
    if style != "random":
        occupied = {pile.position for pile in game.piles}

        def cost(position: Position) -> tuple[int, bool]:
            after = game.copy().place(position).face_down_count
            return after, style == "builder" and position in occupied

        costs = {position: cost(position) for position in options}
        best = min(costs.values())
        options = [position for position in options if costs[position] == best]
    row, col = rnd.choice(options)
    return row, col


@settings(max_examples=examples(150), deadline=None)
@given(
    seed=st.integers(),
    style=st.sampled_from(["random", "careful", "builder"]),
    rnd=st.randoms(use_true_random=True),
)
def test_random_play_agrees_with_the_reference_after_every_placement(
    seed: int, style: str, rnd: random.Random
) -> None:
    game = Game.from_seed(seed)
    deck = [card.code for card in game.deck]
    grid: Grid = {}
    positions: list[Cell] = []
    while True:
        check_against_reference(game, grid, deck, len(positions))
        check_invariants(game, deck)
        check_round_trips(game, positions)
        check_illegal_rejected(game, grid, rnd)
        if game.is_over:
            break
        check_legal_accepted(game)
        if rnd.random() < 0.5:
            game = game.copy()  # a copy must play on exactly like the original

        card = deck[len(positions)]
        cell = choose(style, game, rnd)
        expected_flips = ref_place(grid, cell, card)
        positions.append(cell)
        note(f"placement {len(positions)}: {card} at {cell}")
        before = grid_of(game)

        result = game.place(cell)

        after = grid_of(game)
        flipped = {(f.position.row, f.position.col): f.face_up for f in result.flipped}
        assert flipped == expected_flips
        assert list(flipped) == sorted(flipped)  # by row, then column
        changed = {c for c, (_, up) in before.items() if c != cell and after[c][1] != up}
        assert changed == set(flipped)
        assert all(after[c][1] == up for c, up in flipped.items())
        assert all(row == cell[0] or col == cell[1] for row, col in changed)
        assert after[cell][0][-1] == card
        assert after[cell][1]  # the placed card lies face up
        assert (result.number, result.card.code, result.position) == (len(positions), card, cell)
        assert (result.status, result.end_reason, result.score) == (
            game.status,
            game.end_reason,
            game.score,
        )
        assert result.face_down_count == game.face_down_count
    event(f"{style}: {game.status.value} {game.end_reason or ''}".strip())
