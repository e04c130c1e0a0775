"""The daily challenge across real server processes (``foursquare serve``, wall clock): every
process deals the same deal without talking to the others, and a player's attempts sent at
once by concurrent clients make exactly one game."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import httpx
import pytest
from sqlalchemy import create_engine, text

from api.core.days import daily_deal
from testkit.server import running_server

# Real server processes, several per test: the slow tier (`-m "not slow"` leaves it out).
pytestmark = pytest.mark.slow


def stored_secret(database_url: str) -> bytes:
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            value = connection.execute(
                text("SELECT value FROM service_secrets WHERE name = 'challenge'")
            ).scalar_one()
    finally:
        engine.dispose()
    return str(value).encode()


def register(base_url: str, name: str) -> dict[str, str]:
    response = httpx.post(f"{base_url}/players", json={"name": name}, timeout=30)
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['key']}"}


def test_two_server_processes_deal_the_same_challenge(database_url: str) -> None:
    with running_server(database_url) as first, running_server(database_url) as second:
        pages = [
            httpx.get(f"{s.base_url}/challenges/today", timeout=30).json() for s in (first, second)
        ]
        games = [
            httpx.post(
                f"{server.base_url}/games",
                json={"challenge": "daily"},
                headers=register(server.base_url, name),
                timeout=30,
            ).json()
            for server, name in ((first, "ana"), (second, "bob"))
        ]
    # The two processes' commitments are one, and so are their games' first cards: both
    # derived the day's deal from the secret migration 0010 stored in the database.
    assert pages[0]["date"] == pages[1]["date"]
    assert pages[0]["deck_commitment"] == pages[1]["deck_commitment"]
    assert {g["deck_commitment"] for g in games} == {pages[0]["deck_commitment"]}
    assert games[0]["current_card"] == games[1]["current_card"]
    day = datetime.fromisoformat(pages[0]["date"]).date()
    deal = daily_deal(stored_secret(database_url), day)
    if day == datetime.now(UTC).date():  # (unless the test straddled midnight)
        assert deal.commitment == pages[0]["deck_commitment"]
        assert games[0]["current_card"]["code"] == deal.deck[0]


def test_two_servers_sharing_a_configured_secret_agree_and_another_secret_differs(
    database_url: str,
) -> None:
    shared = {"FOURSQUARE_CHALLENGE_SECRET": "one shared secret"}
    other = {"FOURSQUARE_CHALLENGE_SECRET": "another secret"}
    with (
        running_server(database_url, extra_env=shared) as first,
        running_server(database_url, extra_env=shared) as second,
        running_server(database_url, extra_env=other) as third,
    ):
        pages = [
            httpx.get(f"{s.base_url}/challenges/today", timeout=30).json()
            for s in (first, second, third)
        ]
    assert pages[0]["deck_commitment"] == pages[1]["deck_commitment"]
    assert pages[2]["deck_commitment"] != pages[0]["deck_commitment"]
    day = datetime.fromisoformat(pages[0]["date"]).date()
    assert daily_deal(b"one shared secret", day).commitment == pages[0]["deck_commitment"]


def test_concurrent_attempts_of_one_player_make_exactly_one_game(database_url: str) -> None:
    clients = 8
    with running_server(database_url, workers=2) as server:
        auth = register(server.base_url, "ana")
        barrier = threading.Barrier(clients)
        answers: list[httpx.Response] = []
        lock = threading.Lock()

        def attempt() -> None:
            with httpx.Client(base_url=server.base_url, timeout=60) as http:
                http.get("/healthz")  # connected before the start line
                barrier.wait()
                response = http.post("/games", json={"challenge": "daily"}, headers=auth)
            with lock:
                answers.append(response)

        threads = [threading.Thread(target=attempt) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        statuses = sorted(response.status_code for response in answers)
        assert statuses == [201] + [409] * (clients - 1), [r.text for r in answers]
        created = next(r.json() for r in answers if r.status_code == 201)
        for response in answers:
            if response.status_code == 409:
                assert response.json()["code"] == "challenge_already_played"
        stats = httpx.get(f"{server.base_url}/players/ana", timeout=30).json()["stats"]
        assert stats["games_played"] == 1
        games = httpx.get(f"{server.base_url}/players/ana/games", timeout=30).json()["games"]
        assert [g["id"] for g in games] == [created["id"]]
        today = httpx.get(f"{server.base_url}/challenges/today", timeout=30).json()
        assert today["played"] == 1
