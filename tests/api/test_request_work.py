"""Each request does its work once: a placement reads its game once, checks its token once,
decodes and plays it once on the engine, takes its snapshot once and renders its answer once,
the placement that ends a game included; a replayed idempotent placement does none of it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.games import placing, render, snapshot, store
from engine import Game
from tests.conftest import CreatedGame, MakeGame
from tests.integrity.players import winning_lines


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each step of a request ran, counted while the test runs."""
    counted: Counter[str] = Counter()

    def counting(name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def counted_call(*args: Any, **kwargs: Any) -> Any:
            counted[name] += 1
            return function(*args, **kwargs)

        return counted_call

    steps = [
        (store, "get_game", "read"),
        (placing, "authorize", "token check"),
        (placing, "decode", "decode"),
        (Game, "place", "engine play"),
        (snapshot, "take", "snapshot"),
        (store, "move_game", "store"),
        (render, "game_out", "render"),
    ]
    for owner, attribute, name in steps:
        monkeypatch.setattr(owner, attribute, counting(name, getattr(owner, attribute)))
    return counted


ONCE = {
    "read": 1,
    "token check": 1,
    "decode": 1,
    "engine play": 1,
    "snapshot": 1,
    "store": 1,
    "render": 1,
}


def place(
    client: TestClient, game: CreatedGame, cell: tuple[int, int], **headers: str
) -> dict[str, Any]:
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": cell[0], "col": cell[1]},
        headers={**game.auth, **headers},
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_placement_does_each_step_once(
    client: TestClient, make_game: MakeGame, calls: Counter[str]
) -> None:
    game = make_game()
    calls.clear()
    place(client, game, (0, 0))
    assert dict(calls) == ONCE


def test_the_placement_that_wins_a_game_does_each_step_once(
    client: TestClient, make_game: MakeGame, calls: Counter[str]
) -> None:
    line = winning_lines()[0]
    game = make_game(deck=line.deck)
    for cell in line.positions[:-1]:
        place(client, game, cell)
    calls.clear()
    answer = place(client, game, line.positions[-1])
    assert answer["game"]["status"] == "won" and answer["game"]["rank"] == 1
    assert dict(calls) == ONCE


def test_an_idempotent_placement_does_each_step_once_and_its_replay_none(
    client: TestClient, make_game: MakeGame, calls: Counter[str]
) -> None:
    game = make_game()
    calls.clear()
    first = place(client, game, (0, 0), **{"Idempotency-Key": "once"})
    assert dict(calls) == ONCE
    calls.clear()
    assert place(client, game, (0, 0), **{"Idempotency-Key": "once"}) == first
    assert sum(calls.values()) == 0
