"""The shared conformance vectors, for the API tests."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

SHARED = Path(__file__).resolve().parents[3] / "shared"


@cache
def vectors() -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = json.loads((SHARED / "conformance.json").read_text())["games"]
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
