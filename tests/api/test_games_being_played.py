"""The games being played (`GET /games?status=in_progress`, the home page's and the Live
page's list) are the games that moved recently, on a real server with its default settings:
a game left alone leaves the list on its own, long before the expiry ends it, and comes back
when it moves again (issue 55: games left after a "Leave it" stayed listed for a week)."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from api.core.database import create_database
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.games import start_game
from testkit.server import running_server

DEADLINE = 60.0


def listed(client: httpx.Client) -> list[str]:
    answer = client.get("/games", params={"status": "in_progress", "limit": 100})
    assert answer.status_code == 200, answer.text
    return [game["game_id"] for game in answer.json()["games"]]


def stored_at(database_url: str, player: str, at: datetime) -> tuple[str, str]:
    """A game in progress started (its last move) at ``at``: its id and token."""
    database = create_database(Settings(database_url=database_url, migrate_on_start=False))
    try:
        with fake_clock.frozen(at), database.transaction() as session:
            created = start_game(session, player)
            session.flush()
            return str(created.id), created.token
    finally:
        database.dispose()


def place_first(client: httpx.Client, game_id: str, token: str) -> dict[str, Any]:
    answer = client.post(
        f"/games/{game_id}/placements",
        json={"row": 0, "col": 0},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 201, answer.text
    game: dict[str, Any] = answer.json()["game"]
    return game


def test_a_game_left_alone_is_not_listed_and_comes_back_when_it_moves(database_url: str) -> None:
    # Left 11 minutes ago (the default lists ten), far from the expiry's week: still a game in
    # progress anybody may read, and its player may resume.
    left_id, left_token = stored_at(database_url, "left", datetime.now(UTC) - timedelta(minutes=11))
    with (
        running_server(database_url) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as client,
    ):
        playing = client.post("/games", json={"player": "playing"}).json()
        shown = listed(client)
        assert playing["id"] in shown
        assert left_id not in shown
        assert client.get(f"/games/{left_id}").json()["status"] == "in_progress"
        # Its player comes back: it moved, so it is being played again, the latest first.
        place_first(client, left_id, left_token)
        assert listed(client)[0] == left_id


def test_the_window_is_a_setting_and_a_game_leaves_the_list_as_time_passes(
    sqlite_url: str,
) -> None:
    env = {"FOURSQUARE_LIVE_MOVED_WITHIN_MINUTES": "0.05"}  # three seconds
    with (
        running_server(sqlite_url, extra_env=env) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as client,
    ):
        created = client.post("/games", json={"player": "idle"}).json()
        place_first(client, created["id"], created["token"])
        assert created["id"] in listed(client)
        deadline = time.monotonic() + DEADLINE
        while created["id"] in listed(client):
            assert time.monotonic() < deadline, "the idle game stayed listed"
            time.sleep(0.2)
        assert client.get(f"/games/{created['id']}").json()["status"] == "in_progress"
