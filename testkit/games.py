"""Games made and moved inside a test's own transaction, and a hint computed in the test's
process: what the tests set up directly in the database, by the games' own code (the public
API's creations and placements go through :class:`api.games.GameService`)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from api.accounts import Identity
from api.games import LoadedGame
from api.games.dealing import deal, store_dealt
from api.games.ids import existing_game, parse_game_id
from api.games.placing import plan_placement, store_placement
from api.games.schemas import GameCreated, PlacementCreated
from api.games.store import get_game
from api.hints.service import question
from engine import Card
from engine.player.advice import Advice, Budget, Policy, advise

CONFORMANCE_PATH = Path(__file__).resolve().parent.parent / "tests" / "data" / "conformance.json"


@dataclass(frozen=True)
class WinningLine:
    deck: list[str]
    positions: list[tuple[int, int]]
    score: int


def winning_lines() -> list[WinningLine]:
    """The won games of the conformance vectors: a deck and the placements that win it
    (played by the integrity tests and by bench/fairplay_drain.py)."""
    vectors = json.loads(CONFORMANCE_PATH.read_text())["games"]
    return [
        WinningLine(
            deck=vector["deck"],
            positions=[(step["row"], step["col"]) for step in vector["steps"]],
            score=vector["final"]["score"],
        )
        for vector in vectors
        if vector["final"]["status"] == "won"
    ]


def start_game(
    session: Session,
    player: str,
    *,
    deck: Sequence[Card | str] | None = None,
    player_id: uuid.UUID | None = None,
) -> GameCreated:
    """Deal ``player`` a game (from ``deck`` if given) and store it in ``session``'s
    transaction."""
    return store_dealt(session, deal(Identity(player, player_id), deck=deck))


def place_in(
    session: Session,
    game_id: uuid.UUID | str,
    token: str | None,
    cell: tuple[int, int],
    if_match: str | None = None,
) -> PlacementCreated:
    """Read, play and store a placement in ``session``'s transaction."""
    game_uuid = game_id if isinstance(game_id, uuid.UUID) else parse_game_id(game_id)
    row = existing_game(get_game(session, game_uuid), game_id)
    return store_placement(session, plan_placement(row, token, cell, if_match))


def compute_hint(loaded: LoadedGame, budget: Budget) -> Advice:
    """The computer player's advice, computed in this process (what the hint pool's workers
    compute)."""
    view, seed = question(loaded)
    return advise(view, policy=Policy.BEST, seed=seed, budget=budget)
