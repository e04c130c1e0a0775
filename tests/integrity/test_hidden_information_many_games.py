"""Over many games, no answer gives the deal away; every ended game proves its deal fair.

30 games are played at once through a real server, interleaved, with random legal
placements (and 3 more, dealt from winning decks of the conformance vectors, with their
winning placements), along with refused
requests (no token, another game's token, an illegal cell, a stale ``If-Match``, a placement
after the end, an oversized body), conditional reads and idempotent replays. No answer or
header may show any game's seed, the salt of a game still in progress, or a card of a game's
stock before it is drawn. Once a game is over its answer reveals the deck and the salt: they
must match the commitment published at creation, and replaying the history on that deck must
give the game's status, score and piles.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from sqlalchemy import Engine, create_engine, select
from sqlalchemy.orm import Session

from api.games.tables import games
from engine import Game, replay
from testkit.server import running_server
from tests.integrity.conftest import Report
from tests.integrity.players import insert_games, winning_lines
from tests.support.fairplay import boarded

GAMES = 30
WINNING_GAMES = 3  # dealt from winning decks of the conformance vectors, so that wins end too
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[CDHS](?![0-9A-Za-z])")
# Values that are not about cards: ids, the token, hashes, cursors, timestamps, problem URIs.
OPAQUE_FIELDS = frozenset(
    {"id", "game_id", "token", "deck_commitment", "next_cursor", "type", "instance"}
    | {"created_at", "updated_at", "finished_at"}
)
SECRET_FIELDS = frozenset({"deck", "seed", "salt", "state", "stock"})


@dataclass
class Watched:
    """A game under watch, with the secrets read from its row."""

    id: str
    token: str
    commitment: str
    seed: str | None  # None: dealt from a chosen deck
    salt: str
    deck: list[str]
    view: dict[str, Any]
    line: list[tuple[int, int]] | None = None  # the placements that win it, if known
    placed: int = 0
    over: bool = False

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    @property
    def drawn(self) -> set[str]:
        return set(self.deck if self.over else self.deck[: self.placed + 1])

    @property
    def stock(self) -> list[str]:
        return [] if self.over else self.deck[self.placed + 1 :]


def _strings(value: Any, field: str | None = None) -> Iterator[tuple[str | None, str]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, key)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item, field)
    elif isinstance(value, str):
        yield field, value


def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _keys(item)


class Watcher:
    """Checks every answer against the secrets of every game."""

    def __init__(self) -> None:
        self.games: dict[str, Watched] = {}
        self.answers: Counter[str] = Counter()

    def check(self, response: httpx.Response, subject: Watched | None) -> None:
        code = ""
        body: Any = None
        if response.content:
            body = response.json()
            code = body.get("code", "") if isinstance(body, dict) else ""
        self.answers[f"{response.status_code} {code}".strip()] += 1
        assert response.status_code < 500, response.text
        text = response.text + json.dumps(dict(response.headers))
        for game in self.games.values():
            if game.seed is not None:
                assert game.seed not in text, f"seed of {game.id} in {response.request.url}"
            if not game.over:
                assert game.salt not in text, f"salt of {game.id} in {response.request.url}"
                stock = game.stock
                forms = (",".join(stock), "".join(stock), json.dumps(stock), _compact(stock))
                assert len(stock) < 2 or not any(form in text for form in forms), game.id
        if subject is None or subject.over:
            return
        assert not SECRET_FIELDS & set(_keys(body)), f"{response.request.url}: {body}"
        game_view = body.get("game", body) if isinstance(body, dict) else None
        if isinstance(game_view, dict):
            assert game_view.get("reveal") is None, response.text
        cards = {
            card
            for field, value in _strings(body)
            if field not in OPAQUE_FIELDS
            for card in CARD.findall(value)
        }
        hidden = cards - subject.drawn
        assert not hidden, f"{response.request.url} shows undrawn {hidden}: {response.text}"


def _compact(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _secrets(engine: Engine, game_id: str) -> tuple[str | None, str, list[str]]:
    """The seed, the salt and the deck order of a game, from its row."""
    with Session(engine) as session:
        row = session.execute(select(games).where(games.c.id == uuid.UUID(game_id))).one()
        deck = [card.code for card in Game.from_dict(json.loads(row.state)).deck]
        return row.seed, row.salt, deck


def _watch_winning(
    client: httpx.Client, engine: Engine, watcher: Watcher, database_url: str
) -> list[Watched]:
    games = []
    for live in insert_games(database_url, winning_lines()[:WINNING_GAMES], "hidden-winner"):
        assert live.line is not None
        read = client.get(f"/games/{live.id}")
        seed, salt, deck = _secrets(engine, live.id)
        view = read.json()
        game = Watched(
            live.id,
            live.token,
            view["deck_commitment"],
            seed,
            salt,
            deck,
            view,
            live.line.positions,
        )
        watcher.games[game.id] = game
        watcher.check(read, game)
        games.append(game)
    return games


def _watch(client: httpx.Client, engine: Engine, watcher: Watcher, index: int) -> Watched:
    headers = {"Idempotency-Key": str(uuid.uuid4())} if index % 3 == 0 else {}
    created = client.post("/games", json={"player": f"hidden-{index}"}, headers=headers)
    assert created.status_code == 201, created.text
    body = created.json()
    seed, salt, deck = _secrets(engine, body["id"])
    assert seed is not None
    view = {name: value for name, value in body.items() if name != "token"}
    game = Watched(body["id"], body["token"], body["deck_commitment"], seed, salt, deck, view)
    watcher.games[game.id] = game
    watcher.check(created, game)
    if headers:
        replayed = client.post("/games", json={"player": f"hidden-{index}"}, headers=headers)
        assert replayed.headers["idempotent-replayed"] == "true"
        assert replayed.json() == body
        watcher.check(replayed, game)
    return game


def _refusals(
    client: httpx.Client, game: Watched, view: dict[str, Any], other: Watched, rng: random.Random
) -> list[httpx.Response]:
    """Requests that must be refused, each checked like any other answer."""
    path = f"/games/{game.id}/placements"
    legal = view["legal_placements"]
    target = rng.choice(legal)
    illegal = [
        {"row": row, "col": col}
        for row in range(-3, 4)
        for col in range(-3, 4)
        if {"row": row, "col": col} not in legal
    ]
    answers = [
        client.post(path, json=target),
        client.post(path, json=target, headers=other.auth),
        client.post(path, json=rng.choice(illegal), headers=game.auth),
        client.post(path, content=b'{"row": 0, "col": 0, "pad": "' + b"x" * 5000 + b'"}'),
    ]
    if view["version"] > 1:
        answers.append(client.post(path, json=target, headers={**game.auth, "If-Match": '"v1"'}))
    answers.append(
        client.get(f"/games/{game.id}", headers={"If-None-Match": f'"v{view["version"]}"'})
    )
    expected = [401, 403, 422, 413] + ([412] if view["version"] > 1 else []) + [304]
    assert [answer.status_code for answer in answers] == expected, [a.text for a in answers]
    return answers


def _verify_end(client: httpx.Client, game: Watched, final: dict[str, Any]) -> None:
    reveal = final["reveal"]
    assert reveal == {"deck": game.deck, "salt": game.salt}
    digest = hashlib.sha256(f"{reveal['salt']}:{','.join(reveal['deck'])}".encode()).hexdigest()
    assert digest == game.commitment == final["deck_commitment"]
    history = client.get(f"/games/{game.id}/placements").json()["placements"]
    replayed = replay(reveal["deck"], [(p["row"], p["col"]) for p in history])
    assert replayed.status.value == final["status"]
    assert replayed.score == final["score"]
    assert (replayed.end_reason.value if replayed.end_reason else None) == final["end_reason"]
    piles = [
        {
            "row": pile.position.row,
            "col": pile.position.col,
            "cards": [card.code for card in pile.cards],
            "face_up": pile.face_up,
        }
        for pile in replayed.piles
    ]
    shown = [{**pile, "cards": [card["code"] for card in pile["cards"]]} for pile in final["piles"]]
    assert shown == piles


@pytest.mark.slow
def test_many_games_never_show_the_stock_seed_or_salt_and_every_end_verifies(
    database_url: str, report: Report
) -> None:
    rng = random.Random(8)
    watcher = Watcher()
    engine = create_engine(database_url)
    with running_server(database_url) as server, httpx.Client(base_url=server.base_url) as client:
        games = [_watch(client, engine, watcher, i) for i in range(GAMES)]
        games += _watch_winning(client, engine, watcher, database_url)
        engine.dispose()
        keyed = 0
        while open_games := [game for game in games if not game.over]:
            game = rng.choice(open_games)
            roll = rng.random()
            if roll < 0.2:
                read = client.get(f"/games/{game.id}")
                watcher.check(read, game)
                assert read.json() == game.view
            if roll < 0.05:
                other = rng.choice([g for g in games if g is not game])
                for answer in _refusals(client, game, game.view, other, rng):
                    watcher.check(answer, game)
            elif roll < 0.1:
                watcher.check(client.get(f"/games/{game.id}/placements"), game)
                watcher.check(client.get("/leaderboard?limit=100"), None)
            keyed += roll >= 0.8
            _place(client, watcher, game, rng, f"hidden-place-{keyed}" if roll >= 0.8 else None)

        # A win without hints joins the board once its fair-play review is done; the winning
        # lines are the computer player's own, which the review flags: the suite's operator
        # clears them, as a moderator would.
        for game in games:
            if game.view["status"] == "won":
                boarded(client, game.id, clear=True)
        board = client.get("/leaderboard?limit=100")
        watcher.check(board, None)
    won = {game.id for game in games if game.view["status"] == "won"}
    assert {game.id for game in games if game.line is not None} <= won
    assert {entry["game_id"] for entry in board.json()["entries"]} == won
    report(
        "hidden_information",
        {
            "games_played": {"random": GAMES, "winning_lines": WINNING_GAMES},
            "games_won": len(won),
            "answers_checked": sum(watcher.answers.values()),
            "answers_by_status": dict(sorted(watcher.answers.items())),
            "games_verified_at_the_end": sum(1 for game in games if game.over),
        },
    )


def _place(
    client: httpx.Client, watcher: Watcher, game: Watched, rng: random.Random, key: str | None
) -> None:
    """Place a card (random, or the winning line's); with a key, send it twice."""
    if game.line is not None:
        row, col = game.line[game.placed]
        target = {"row": row, "col": col}
    else:
        target = rng.choice(game.view["legal_placements"])
    headers = {**game.auth, **({"Idempotency-Key": key} if key else {})}
    placed = client.post(f"/games/{game.id}/placements", json=target, headers=headers)
    assert placed.status_code == 201, placed.text
    game.view = placed.json()["game"]
    game.placed, game.over = game.view["placements_count"], game.view["status"] != "in_progress"
    watcher.check(placed, game)
    if "Idempotency-Key" in headers:
        again = client.post(f"/games/{game.id}/placements", json=target, headers=headers)
        assert again.headers["idempotent-replayed"] == "true"
        assert again.json() == placed.json()
        watcher.check(again, game)
    if game.over:
        final = client.get(f"/games/{game.id}")
        watcher.check(final, game)
        assert final.json() == game.view
        _verify_end(client, game, game.view)
        late = client.post(f"/games/{game.id}/placements", json=target, headers=game.auth)
        assert late.status_code == 409 and late.json()["code"] == "game_over"
        watcher.check(late, game)
