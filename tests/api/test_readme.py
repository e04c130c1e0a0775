"""The README's deal-verification recipe works against a real finished game."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
from fastapi.testclient import TestClient

README = Path(__file__).resolve().parents[2] / "README.md"


def verify_function(client: TestClient) -> Any:
    text = README.read_text(encoding="utf-8")
    match = re.search(r"<!-- verify-deal -->\n```python\n(.*?)```", text, re.DOTALL)
    assert match, "the README lost its verification recipe"
    namespace: dict[str, Any] = {}
    exec(compile(match.group(1), "README.md", "exec"), namespace)
    # Point the recipe's HTTP client at the test app.
    namespace["httpx"] = type("H", (), {"get": staticmethod(lambda url: client.get(url))})
    return namespace["verify"]


def play_to_the_end(client: TestClient) -> str:
    rng = random.Random(5)
    created = client.post("/games").json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    game = created
    while game["status"] == "in_progress":
        target = rng.choice(game["legal_placements"])
        game = client.post(f"/games/{created['id']}/placements", json=target, headers=auth).json()[
            "game"
        ]
    return str(created["id"])


def test_the_readme_recipe_verifies_a_finished_game(client: TestClient) -> None:
    verify = verify_function(client)
    assert verify("", play_to_the_end(client)) is True


def test_the_readme_recipe_rejects_a_tampered_commitment(client: TestClient) -> None:
    verify = verify_function(client)
    game_id = play_to_the_end(client)
    real_get = client.get

    def tampered(url: str) -> httpx.Response:
        response: httpx.Response = real_get(url)
        if url.endswith(game_id):
            body = response.json()
            body["deck_commitment"] = "0" * 64
            return httpx.Response(200, json=body)
        return response

    namespace_get = verify.__globals__["httpx"]
    namespace_get.get = staticmethod(tampered)
    assert verify("", game_id) is False
