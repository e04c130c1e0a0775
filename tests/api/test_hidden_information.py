"""No response ever shows a card before it is drawn, the seed, or the stock order."""

from __future__ import annotations

import hashlib
import json
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from fastapi.testclient import TestClient
from sqlalchemy import select

from api.core.database import Database
from api.games.tables import games
from engine import Game, replay


def card_codes(value: Any) -> Iterator[str]:
    """Every card code anywhere in a JSON value (cards are objects with rank, suit, code)."""
    if isinstance(value, dict):
        if {"rank", "suit", "code"} <= value.keys():
            yield value["code"]
        for item in value.values():
            yield from card_codes(item)
    elif isinstance(value, list):
        for item in value:
            yield from card_codes(item)


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def game_over_in(body: Any) -> bool:
    game = body.get("game", body) if isinstance(body, dict) else None
    return isinstance(game, dict) and game.get("status") in {"won", "lost"}


def test_walking_a_whole_game_never_reveals_a_card_before_it_is_drawn(
    client: TestClient, database: Database
) -> None:
    rng = random.Random(1)
    created = client.post("/games", json={"player": "watcher"})
    game_id, token = created.json()["id"], created.json()["token"]
    commitment = created.json()["deck_commitment"]
    with database.transaction() as session:
        row = session.execute(select(games).where(games.c.id == uuid.UUID(game_id))).one()
        assert row.seed
        seed, salt = row.seed, row.salt
        deck = [card.code for card in Game.from_dict(json.loads(row.state)).deck]
    responses: list[httpx.Response] = [created]
    drawn = 1
    while True:
        game = client.get(f"/games/{game_id}").json()
        responses.append(client.get(f"/games/{game_id}"))
        responses.append(client.get(f"/games/{game_id}/placements"))
        responses.append(client.get("/leaderboard"))
        over = game["status"] != "in_progress"
        for response in responses:
            body = response.json()
            text = response.text + json.dumps(dict(response.headers))
            assert seed not in text
            if over and game_over_in(body):
                continue  # the end of the game reveals the deck: checked below
            visible = set(card_codes(body))
            assert visible <= set(deck[:drawn]), (response.url, visible - set(deck[:drawn]))
            assert not {"deck", "stock", "seed", "state", "salt", "reveal"} & set(keys(body)) - {
                "reveal"
            }
            assert body.get("reveal") is None if isinstance(body, dict) else True
            assert salt not in text
            assert ",".join(deck[drawn:]) not in text
        responses.clear()
        if over:
            break
        target = rng.choice(game["legal_placements"])
        placed = client.post(
            f"/games/{game_id}/placements",
            json=target,
            headers={"Authorization": f"Bearer {token}"},
        )
        assert placed.status_code == 201
        responses.append(placed)
        drawn += 1 if placed.json()["game"]["status"] == "in_progress" else 0
        # Refused requests must not leak either.
        responses.append(client.post(f"/games/{game_id}/placements", json=target))
        responses.append(
            client.post(
                f"/games/{game_id}/placements", json={"row": 9}, headers=placed.request.headers
            )
        )
    # Now the game is over: the deck and the salt are revealed, match the commitment made at
    # creation, and replaying the history on that deck gives the stored result.
    reveal = game["reveal"]
    assert reveal == {"deck": deck, "salt": salt}
    recipe = hashlib.sha256(f"{reveal['salt']}:{','.join(reveal['deck'])}".encode()).hexdigest()
    assert recipe == commitment == game["deck_commitment"]
    history = client.get(f"/games/{game_id}/placements").json()["placements"]
    replayed = replay(reveal["deck"], [(p["row"], p["col"]) for p in history])
    assert replayed.status.value == game["status"]
    assert replayed.score == game["score"]
    assert [pile.top.code for pile in replayed.piles] == [
        p["cards"][-1]["code"] for p in game["piles"]
    ]
