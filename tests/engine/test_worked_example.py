"""The designer's worked example from RULES.md, case by case."""

from __future__ import annotations

import pytest

from engine import (
    EngineError,
    Flip,
    GridTooLarge,
    IllegalPlacement,
    NotAdjacent,
    Position,
    Status,
)
from tests.engine.factories import grid_of, worked_example

DOWN, UP = False, True

# position, {pile: side it shows after flipping}, face-down count after, status, end reason
LEGAL_CASES = [
    pytest.param(
        (2, 1),
        {(0, 1): DOWN, (1, 1): UP, (2, 2): DOWN, (2, 3): DOWN},
        3,
        Status.IN_PROGRESS,
        None,
        id="new-pile-2-1-highest-in-row-lowest-in-column",
    ),
    pytest.param(
        (0, 1),
        {(0, 0): DOWN, (1, 1): UP},
        1,
        Status.IN_PROGRESS,
        None,
        id="on-10C-lowest-in-row-column-has-only-a-face-down-pile",
    ),
    pytest.param(
        (1, 1),
        {(0, 1): DOWN},
        1,
        Status.IN_PROGRESS,
        None,
        id="on-face-down-pile-tie-in-row-lowest-in-column",
    ),
    pytest.param(
        (0, 3),
        {(0, 0): DOWN, (0, 1): DOWN, (1, 3): DOWN, (2, 3): DOWN},
        5,
        Status.LOST,
        "too_many_face_down",
        id="new-pile-0-3-leaves-five-face-down-and-loses",
    ),
]

ILLEGAL_CASES = [
    pytest.param((2, 0), NotAdjacent, "not_adjacent", id="2-0-not-adjacent"),
    pytest.param((1, 4), GridTooLarge, "grid_too_large", id="1-4-five-columns-wide"),
]


def test_worked_example_starts_with_6d_and_one_face_down_pile() -> None:
    game = worked_example()

    assert game.current_card is not None
    assert game.current_card.code == "6D"
    assert game.face_down_count == 1
    assert game.status is Status.IN_PROGRESS
    assert game.placements_count == 7


@pytest.mark.parametrize(("position", "flips", "face_down", "status", "end_reason"), LEGAL_CASES)
def test_worked_example_placement_flips_exactly_the_expected_piles(
    position: tuple[int, int],
    flips: dict[tuple[int, int], bool],
    face_down: int,
    status: Status,
    end_reason: str | None,
) -> None:
    game = worked_example()
    before = grid_of(game)

    result = game.place(position)

    assert result.flipped == tuple(Flip(Position(*p), side) for p, side in sorted(flips.items()))
    assert result.card.code == "6D"
    assert result.position == Position(*position)
    assert result.face_down_count == game.face_down_count == face_down
    assert result.status is game.status is status
    assert result.end_reason == game.end_reason == end_reason
    after = grid_of(game)
    cards, face_up = after[position]
    assert cards[-1] == "6D"
    assert face_up
    for other, (_, was_up) in before.items():
        if other != position:
            assert after[other][1] == flips.get(other, was_up), f"pile {other}"


def test_worked_example_losing_placement_ends_the_game() -> None:
    game = worked_example()

    game.place((0, 3))

    assert game.is_over
    assert game.score is None
    assert game.current_card is None
    assert game.legal_placements() == []


@pytest.mark.parametrize(("position", "error", "code"), ILLEGAL_CASES)
def test_worked_example_illegal_placement_is_rejected_and_changes_nothing(
    position: tuple[int, int], error: type[IllegalPlacement], code: str
) -> None:
    game = worked_example()
    before = game.to_dict()
    legal_before = game.legal_placements()

    with pytest.raises(error) as raised:
        game.place(position)

    assert isinstance(raised.value, EngineError)
    assert raised.value.code == code
    assert str(Position(*position)) in str(raised.value)
    assert game.to_dict() == before
    assert game.legal_placements() == legal_before
    assert position not in legal_before


@pytest.mark.parametrize("position", [(True, 0), (0, False), (1.0, 0), (0, 0.0), ("0", 0)])
def test_only_ints_are_coordinates(position: tuple[object, object]) -> None:
    """``True == 1`` and ``1.0 == 1`` hash alike, so a lookup alone would accept them."""
    game = worked_example()
    before = game.to_dict()
    with pytest.raises(TypeError):
        game.place(position)  # type: ignore[arg-type]
    assert game.to_dict() == before
