"""Fair-play reviews survive their server: wins whose reviews are queued or running when the
server is killed (SIGKILL, the whole process group) are all reviewed once another starts, on
both databases, with real server processes."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, Row, create_engine
from sqlalchemy.orm import Session

from api.fairplay import store as fairplay_store
from testkit.games import start_game
from testkit.server import Server, running_server
from tests.api.test_fairplay import BEST_DEALS, GREEDY_DEAL, line

DEADLINE = 240.0  # seconds: generous, the machine is shared
FAST = {
    "FOURSQUARE_FAIRPLAY_POLL_SECONDS": "0.2",
    "FOURSQUARE_FAIRPLAY_HEARTBEAT_SECONDS": "0.5",
    "FOURSQUARE_FAIRPLAY_STALE_SECONDS": "3",
}

pytestmark = pytest.mark.slow  # real servers computing reviews: the slow tier


@pytest.fixture
def engine(database_url: str) -> Iterator[Engine]:
    engine = create_engine(database_url)
    yield engine
    engine.dispose()


def reviews(engine: Engine, game_ids: list[str]) -> dict[str, Row[Any]]:
    with engine.connect() as connection:
        found = fairplay_store.of_games(connection, [uuid.UUID(g) for g in game_ids])
    return {str(game_id): review for game_id, review in found.items()}


def win(engine: Engine, base_url: str, seed: int, policy: str) -> str:
    """A game won over HTTP with ``policy``'s placements on deal ``seed``."""
    deck, positions = line(seed, policy)
    with Session(engine) as session, session.begin():
        created = start_game(session, f"{policy}-player", deck=deck)
    with httpx.Client(base_url=base_url, timeout=30) as client:
        for row, col in positions:
            placed = client.post(
                f"/games/{created.id}/placements",
                json={"row": row, "col": col},
                headers={"Authorization": f"Bearer {created.token}"},
            )
            assert placed.status_code == 201, placed.text
        assert placed.json()["game"]["fair_play"]["status"] == "pending"
    return str(created.id)


def test_reviews_queued_or_running_when_the_server_is_killed_are_all_done_after(
    database_url: str, engine: Engine, tmp_path: Path
) -> None:
    first = Server(database_url, extra_env=FAST, log_path=tmp_path / "first.log")
    first.start()
    try:
        games = [
            win(engine, first.base_url, BEST_DEALS[0], "best"),
            win(engine, first.base_url, GREEDY_DEAL, "greedy"),
            win(engine, first.base_url, BEST_DEALS[1], "best"),
        ]
    finally:
        first.kill()  # SIGKILL to the whole process group: server, its review worker
    before = reviews(engine, games)
    assert set(before) == set(games)  # each queued with its win
    assert any(review.state != "done" for review in before.values())

    with running_server(database_url, extra_env=FAST, log_path=tmp_path / "second.log") as second:
        deadline = time.monotonic() + DEADLINE
        while True:
            after = reviews(engine, games)
            if all(review.state == "done" for review in after.values()):
                break
            assert time.monotonic() < deadline, f"not all reviewed: {after}"
            time.sleep(0.2)
        verdicts = [after[game].verdict for game in games]
        assert verdicts == ["flagged", "clean", "flagged"]
        with httpx.Client(base_url=second.base_url, timeout=30) as client:
            board = client.get("/leaderboard").json()
            assert [entry["game_id"] for entry in board["entries"]] == [games[1]]
            assert board["held_for_review"] == 2
            for game, verdict in zip(games, verdicts, strict=True):
                state = client.get(f"/games/{game}").json()["fair_play"]["status"]
                assert state == verdict
