"""Abandoning a game: the one ending the service decides, kept in the state."""

from __future__ import annotations

import pytest

from engine import EndReason, Game, GameOver, InvalidState, Status
from tests.engine.test_state import finished_game, mid_game


def test_an_abandoned_game_is_lost_and_over_and_keeps_its_grid() -> None:
    game = mid_game()
    piles, placed = game.piles, game.placements_count
    game.abandon()
    assert (game.status, game.end_reason, game.score) == (Status.LOST, EndReason.ABANDONED, None)
    assert game.is_over and game.current_card is None and game.legal_placements() == []
    assert (game.piles, game.placements_count) == (piles, placed)
    with pytest.raises(GameOver):
        game.place((0, 1))


def test_abandonment_survives_the_state_and_is_part_of_equality() -> None:
    game = mid_game()
    kept = game.copy()
    game.abandon()
    state = game.to_dict()
    assert state["abandoned"] is True
    again = Game.from_dict(state)
    assert (again.status, again.end_reason) == (Status.LOST, EndReason.ABANDONED)
    assert again == game != kept
    assert "abandoned" not in kept.to_dict()  # states of other games are as before


@pytest.mark.parametrize(("status", "end_reason"), [("won", None), ("lost", "stock_exhausted")])
def test_a_finished_game_cannot_be_abandoned(status: str, end_reason: str | None) -> None:
    game = finished_game(status, end_reason)
    with pytest.raises(GameOver):
        game.abandon()
    assert (game.status, game.end_reason) == (status, end_reason)
    with pytest.raises(InvalidState):
        Game.from_dict(game.to_dict() | {"abandoned": True})


@pytest.mark.parametrize("flag", ["yes", 1, None])
def test_the_abandoned_flag_must_be_a_boolean(flag: object) -> None:
    with pytest.raises(InvalidState):
        Game.from_dict(mid_game().to_dict() | {"abandoned": flag})
