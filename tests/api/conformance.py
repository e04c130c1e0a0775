"""The conformance vectors (the repository's copy), for the API tests."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import CreatedGame
from tests.engine.factories import CONFORMANCE_PATH


@cache
def vectors() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads(CONFORMANCE_PATH.read_text())["games"]
    return games


def won_vectors() -> list[dict[str, Any]]:
    return [game for game in vectors() if game["final"]["status"] == "won"]


def lost_vectors(count: int) -> list[dict[str, Any]]:
    lost = [game for game in vectors() if game["final"]["status"] == "lost"]
    by_reason = {
        reason: [g for g in lost if g["final"]["end_reason"] == reason]
        for reason in ("too_many_face_down", "stock_exhausted")
    }
    return [game for games in by_reason.values() for game in games[: count // 2]]


def card_json(code: str) -> dict[str, Any]:
    rank = {"A": 1}.get(code[:-1]) or int(code[:-1])
    suit = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}[code[-1]]
    return {"rank": rank, "suit": suit, "code": code}


def play_vector(client: TestClient, game: CreatedGame, vector: dict[str, Any]) -> dict[str, Any]:
    """Play a vector's placements through HTTP, checking every step and the end against it.
    Returns the final game."""
    state = client.get(f"/games/{game.id}").json()
    for number, step in enumerate(vector["steps"], start=1):
        assert {"row": step["row"], "col": step["col"]} in state["legal_placements"]
        response = client.post(
            f"/games/{game.id}/placements",
            json={"row": step["row"], "col": step["col"]},
            headers=game.auth,
        )
        assert response.status_code == 201, response.text
        body = response.json()
        placement = body["placement"]
        assert placement["number"] == number
        assert placement["card"] == card_json(vector["deck"][number - 1]) == state["current_card"]
        assert [{"row": f["row"], "col": f["col"]} for f in placement["flipped"]] == step["flipped"]
        assert placement["status_after"] == step["status"]
        assert body["game"]["face_down_count"] == step["face_down_count"]
        assert body["game"]["placements_count"] == number
        assert body["game"]["version"] == state["version"] + 1
        state = body["game"]
    final: dict[str, Any] = client.get(f"/games/{game.id}").json()
    assert final == state
    expected = vector["final"]
    assert final["status"] == expected["status"]
    assert final["end_reason"] == expected["end_reason"]
    assert final["score"] == expected["score"]
    assert final["stock_count"] == expected["stock_count"]
    assert final["current_card"] is None
    assert final["legal_placements"] == []
    assert final["finished_at"] is not None
    assert [
        {**pile, "cards": [card["code"] for card in pile["cards"]]} for pile in final["piles"]
    ] == expected["piles"]
    history = client.get(f"/games/{game.id}/placements").json()["placements"]
    assert [(p["row"], p["col"]) for p in history] == [
        (s["row"], s["col"]) for s in vector["steps"]
    ]
    assert [p["number"] for p in history] == list(range(1, len(vector["steps"]) + 1))
    return final
