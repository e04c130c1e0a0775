"""Builders shared by the engine tests: the conformance vectors, and games from pile specs."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from engine import CARDS, Game

REPO_ROOT = Path(__file__).resolve().parents[2]
# The repository's own copy of ../shared/conformance.json, so that a clone with nothing beside
# it can run the tests; tests/engine/test_conformance.py checks that the copy is current.
CONFORMANCE_PATH = REPO_ROOT / "tests" / "data" / "conformance.json"
SHARED_CONFORMANCE_PATH = REPO_ROOT / ".." / "shared" / "conformance.json"


def load_vectors(path: Path = CONFORMANCE_PATH) -> dict[str, Any]:
    """The parsed conformance file: ``{"format": 1, "games": [...]}``."""
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def pile(row: int, col: int, *cards: str, up: bool = True) -> dict[str, Any]:
    """One pile in :meth:`Game.to_dict` form: its cards bottom to top, and its top's side."""
    return {"row": row, "col": col, "cards": list(cards), "face_up": up}


def state_dict(piles: Sequence[dict[str, Any]], upcoming: Iterable[str] = ()) -> dict[str, Any]:
    """A format-1 state with these piles and ``upcoming`` as the next cards to draw.

    The deck is the piles' cards (pile by pile, bottom to top), then ``upcoming``, then every
    other card in card order; ``placed`` is the number of cards on the piles.
    """
    played = [code for p in piles for code in p["cards"]]
    head = [*played, *upcoming]
    rest = [card.code for card in CARDS if card.code not in head]
    return {"format": 1, "deck": [*head, *rest], "placed": len(played), "piles": list(piles)}


def game_with(piles: Sequence[dict[str, Any]], upcoming: Iterable[str] = ()) -> Game:
    """A game in the middle of play: these piles on the table, ``upcoming`` drawn next."""
    return Game.from_dict(state_dict(piles, upcoming))


# The designer's worked example (RULES.md): "↓" at (1, 1) is the AC, face down. 6D is drawn next.
WORKED_EXAMPLE_PILES = (
    pile(0, 0, "9S"),
    pile(0, 1, "10C"),
    pile(1, 1, "AC", up=False),
    pile(1, 2, "6C"),
    pile(1, 3, "4H"),
    pile(2, 2, "3S"),
    pile(2, 3, "2H"),
)


def worked_example() -> Game:
    """The worked example's position, with 6D as the current card."""
    return game_with(WORKED_EXAMPLE_PILES, upcoming=["6D"])


def grid_of(game: Game) -> dict[tuple[int, int], tuple[tuple[str, ...], bool]]:
    """The game's piles as ``{(row, col): (card codes bottom to top, face_up)}``."""
    return {
        (p.position.row, p.position.col): (tuple(card.code for card in p.cards), p.face_up)
        for p in game.piles
    }
