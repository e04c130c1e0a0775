"""The 300 golden games of shared/conformance.json, in-process and through the CLI."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.conformance import Mismatch, check_game
from tests.engine.factories import (
    CONFORMANCE_PATH,
    REPO_ROOT,
    SHARED_CONFORMANCE_PATH,
    load_vectors,
)

VECTORS: list[dict[str, Any]] = load_vectors()["games"]


def first_game(predicate: Callable[[dict[str, Any]], bool]) -> int:
    """The index of the first vector that satisfies ``predicate``."""
    return next(i for i, game in enumerate(VECTORS) if predicate(game))


WON = first_game(lambda g: g["final"]["status"] == "won")
WITH_FLIPS = first_game(lambda g: len(g["steps"]) > 5 and bool(g["steps"][5]["flipped"]))


def run_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.conformance", str(path)],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_vector_file_holds_300_games_of_every_ending() -> None:
    endings = {(g["final"]["status"], g["final"]["end_reason"]) for g in VECTORS}

    assert len(VECTORS) == 300
    assert endings == {("won", None), ("lost", "too_many_face_down"), ("lost", "stock_exhausted")}


@pytest.mark.parametrize("index", range(len(VECTORS)), ids=lambda i: f"game-{i + 1:03d}")
def test_engine_reproduces_conformance_game_step_by_step(index: int) -> None:
    check_game(VECTORS[index])


def bump_face_down_count(game: dict[str, Any]) -> None:
    game["steps"][2]["face_down_count"] += 1


def bump_score(game: dict[str, Any]) -> None:
    game["final"]["score"] += 1


def drop_a_flip(game: dict[str, Any]) -> None:
    game["steps"][5]["flipped"].pop()


def swap_two_deck_cards(game: dict[str, Any]) -> None:
    deck = game["deck"]
    deck[0], deck[1] = deck[1], deck[0]


TAMPERINGS = [
    pytest.param(0, bump_face_down_count, "step 3", "face_down_count", id="face-down-count"),
    pytest.param(WON, bump_score, "final score", "score", id="final-score"),
    pytest.param(WITH_FLIPS, drop_a_flip, "step 6", "flipped", id="flipped-piles"),
    pytest.param(0, swap_two_deck_cards, "(step|final)", "", id="deck-order"),
]


@pytest.mark.parametrize(("index", "tamper", "where", "what"), TAMPERINGS)
def test_check_game_reports_a_tampered_vector(
    index: int, tamper: Callable[[dict[str, Any]], None], where: str, what: str
) -> None:
    vector = copy.deepcopy(VECTORS[index])
    tamper(vector)

    with pytest.raises(Mismatch, match=where):
        check_game(vector)


def test_cli_reproduces_all_300_games() -> None:
    completed = run_cli(CONFORMANCE_PATH)

    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert completed.stdout.strip().splitlines()[-1] == "300/300 games reproduced"


@pytest.mark.parametrize(("index", "tamper", "where", "what"), TAMPERINGS[:3])
def test_cli_fails_clearly_on_a_tampered_copy(
    tmp_path: Path,
    index: int,
    tamper: Callable[[dict[str, Any]], None],
    where: str,
    what: str,
) -> None:
    data = load_vectors()
    tamper(data["games"][index])
    tampered = tmp_path / "conformance.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")

    completed = run_cli(tampered)

    assert completed.returncode != 0
    last = completed.stdout.strip().splitlines()[-1]
    assert last.startswith(f"MISMATCH game {index + 1} of 300: {where}")
    assert what in last
    assert "reproduced" not in completed.stdout


def test_cli_rejects_a_file_that_is_not_json(tmp_path: Path) -> None:
    broken = tmp_path / "conformance.json"
    broken.write_text(CONFORMANCE_PATH.read_text(encoding="utf-8")[:1000], encoding="utf-8")

    completed = run_cli(broken)

    assert completed.returncode == 2
    assert "cannot read vectors" in completed.stderr
    assert "Traceback" not in completed.stderr


@pytest.mark.skipif(
    not SHARED_CONFORMANCE_PATH.exists(), reason="no ../shared/conformance.json beside the clone"
)
def test_the_repositorys_copy_of_the_vectors_is_the_shared_file() -> None:
    shared = SHARED_CONFORMANCE_PATH.read_bytes()
    assert CONFORMANCE_PATH.read_bytes() == shared, (
        "tests/data/conformance.json differs from ../shared/conformance.json: copy it again"
    )
