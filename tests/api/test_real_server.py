"""The service as users run it: ``foursquare serve`` in its own process, over real HTTP."""

from __future__ import annotations

import random

import httpx

from testkit.server import running_server


def test_a_whole_game_through_a_real_uvicorn_process(database_url: str) -> None:
    rng = random.Random(3)
    with running_server(database_url) as server, httpx.Client(base_url=server.base_url) as http:
        assert http.get("/healthz").json() == {"status": "ok"}
        assert "swagger" in http.get("/docs").text.lower()
        assert http.get("/openapi.json").json()["info"]["title"] == "Foursquare Server"
        created = http.post("/games", json={"player": "uvicorn"})
        assert created.status_code == 201
        location, token = created.headers["location"], created.json()["token"]
        game = http.get(location).json()
        while game["status"] == "in_progress":
            target = rng.choice(game["legal_placements"])
            response = http.post(
                f"{location}/placements", json=target, headers={"Authorization": f"Bearer {token}"}
            )
            assert response.status_code == 201, response.text
            game = response.json()["game"]
        assert game["status"] in {"won", "lost"}
        history = http.get(f"{location}/placements").json()["placements"]
        assert len(history) == game["placements_count"]
        leaderboard = http.get("/leaderboard").json()["entries"]
        assert [e["game_id"] for e in leaderboard] == (
            [game["id"]] if game["status"] == "won" else []
        )


def test_the_server_applies_migrations_on_start(tmp_path) -> None:  # type: ignore[no-untyped-def]
    url = f"sqlite:///{tmp_path / 'fresh.db'}"
    with running_server(url) as server:
        response = httpx.post(f"{server.base_url}/games")
        assert response.status_code == 201
