"""Replay conformance vectors: ``python -m engine.conformance PATH``.

Reads a file in the format of ``shared/conformance.json``, replays every game step by step,
compares every step and the final state, and prints ``N/N games reproduced`` as its last line.
Exits with status 1 on the first mismatch, after describing it, and with status 2 if the file
cannot be read as vectors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from engine.errors import EngineError
from engine.game import Game

__all__ = ["Mismatch", "check_game", "main"]


class Mismatch(Exception):
    """A vector the engine does not reproduce."""


def _expect(what: str, got: object, expected: object) -> None:
    if got != expected:
        raise Mismatch(f"{what}: expected {expected!r}, got {got!r}")


def check_game(vector: Mapping[str, Any]) -> None:
    """Replay one game of a vector file; raise :class:`Mismatch` at the first difference."""
    try:
        game = Game(vector["deck"])
    except EngineError as exc:
        raise Mismatch(f"deck: the engine refused it: {exc}") from exc
    for number, step in enumerate(vector["steps"], start=1):
        where = f"step {number} ({step['row']}, {step['col']})"
        try:
            result = game.place((step["row"], step["col"]))
        except EngineError as exc:
            raise Mismatch(f"{where}: the engine refused it: {exc}") from exc
        flipped = [{"row": f.position.row, "col": f.position.col} for f in result.flipped]
        _expect(f"{where} flipped", flipped, step["flipped"])
        _expect(f"{where} face_down_count", result.face_down_count, step["face_down_count"])
        _expect(f"{where} status", result.status.value, step["status"])
    final = vector["final"]
    _expect("final status", game.status.value, final["status"])
    _expect(
        "final end_reason", game.end_reason.value if game.end_reason else None, final["end_reason"]
    )
    _expect("final score", game.score, final["score"])
    _expect("final stock_count", game.stock_count, final["stock_count"])
    _expect("final piles", game.to_dict()["piles"], final["piles"])


def check_all(games: Sequence[Mapping[str, Any]]) -> int:
    """Check every game; return how many were reproduced (all of them, or raise)."""
    for number, vector in enumerate(games, start=1):
        try:
            check_game(vector)
        except Mismatch as exc:
            raise Mismatch(f"game {number} of {len(games)}: {exc}") from exc
        except (KeyError, TypeError, AttributeError) as exc:
            raise Mismatch(f"game {number} of {len(games)}: malformed vector ({exc!r})") from exc
    return len(games)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.conformance", description=__doc__)
    parser.add_argument("path", type=Path, help="a conformance vector file (JSON)")
    args = parser.parse_args(argv)
    try:
        data = json.loads(args.path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"cannot read vectors from {args.path}: {exc}", file=sys.stderr)
        return 2
    if not isinstance(data, dict):
        print(f"{args.path} does not hold a JSON object", file=sys.stderr)
        return 2
    if data.get("format") != 1:
        print(f"unknown vector format {data.get('format')!r}", file=sys.stderr)
        return 2
    games = data.get("games")
    if not isinstance(games, list):
        print("the vector file holds no list of games", file=sys.stderr)
        return 2
    try:
        count = check_all(games)
    except Mismatch as exc:
        print(f"MISMATCH {exc}")
        return 1
    print(f"{count}/{len(games)} games reproduced")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
