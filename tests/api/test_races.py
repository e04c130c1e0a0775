"""Races through the HTTP API on SQLite and PostgreSQL: the lobby, the start and its
countdown, each racer's game played through the ordinary placement endpoint, the ranking, the
computer racer, the time limit, the rematch, the sealed games and the race's event stream.

The app's own ticker deals, ends and plays the computer (short countdown and pace settings);
every wait is for a condition, with a generous deadline."""

from __future__ import annotations

import hashlib
import json
import random
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.core import clock
from api.core.settings import Settings
from tests.api.test_hidden_information import card_codes

DEADLINE = 60.0


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        Settings(
            database_url=database_url,
            migrate_on_start=False,
            race_countdown_seconds=0.2,
            race_computer_seconds=0.02,
            hint_placements=300,
        )
    )


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def register(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return bearer(response.json()["key"])


def wait_for(read: Callable[[], dict[str, Any]], done: Callable[[dict[str, Any]], bool]) -> Any:
    deadline = time.monotonic() + DEADLINE
    while True:
        got = read()
        if done(got):
            return got
        assert time.monotonic() < deadline, got
        time.sleep(0.02)


def race_of(client: TestClient, race_id: str, auth: dict[str, str] | None = None) -> Any:
    response = client.get(f"/races/{race_id}", headers=auth or {})
    assert response.status_code == 200, response.text
    return response.json()


def running(client: TestClient, race_id: str, auth: dict[str, str]) -> Any:
    return wait_for(lambda: race_of(client, race_id, auth), lambda r: r["your_game"] is not None)


def place(client: TestClient, game: dict[str, Any], rng: random.Random) -> Any:
    state = client.get(f"/games/{game['id']}", headers=bearer(game["token"])).json()
    placed = client.post(
        f"/games/{game['id']}/placements",
        json=rng.choice(state["legal_placements"]),
        headers={**bearer(game["token"]), "If-Match": f'"v{state["version"]}"'},
    )
    assert placed.status_code == 201, placed.text
    return placed.json()["game"]


def play_out(client: TestClient, game: dict[str, Any], rng: random.Random) -> Any:
    while (state := place(client, game, rng))["status"] == "in_progress":
        pass
    return state


def two_racers(client: TestClient, **rules: Any) -> tuple[str, dict[str, str], dict[str, str]]:
    """A race opened by the guest ``ana`` and joined by the account ``bo``; their
    credentials."""
    opened = client.post("/races", json={"player": "ana", **rules})
    assert opened.status_code == 201, opened.text
    race = opened.json()
    assert opened.headers["Location"] == f"/races/{race['id']}"
    assert race["status"] == "lobby" and race["you"] == 1 and race["racer_token"]
    bo = register(client, "bob")
    joined = client.post(f"/races/{race['id']}/racers", headers=bo)
    assert joined.status_code == 201, joined.text
    assert joined.json()["racer_token"] is None and joined.json()["you"] == 2
    return race["id"], bearer(race["racer_token"]), bo


def commitment_of(reveal: dict[str, Any]) -> str:
    return hashlib.sha256(f"{reveal['salt']}:{','.join(reveal['deck'])}".encode()).hexdigest()


def test_two_racers_race_one_deal_to_a_ranking_and_the_deal_is_revealed(
    client: TestClient,
) -> None:
    race_id, ana, bo = two_racers(client, seats=2)  # full: it starts by itself
    race = running(client, race_id, ana)
    assert race["starts_at"] is not None and race["status"] == "running"
    mine, theirs = race["your_game"], running(client, race_id, bo)["your_game"]
    rng = random.Random(7)
    first_a = client.get(f"/games/{mine['id']}", headers=ana).json()
    first_b = client.get(f"/games/{theirs['id']}", headers=bo).json()
    # One deal: the same commitment as the race's, the same first card.
    assert first_a["deck_commitment"] == first_b["deck_commitment"] == race["deck_commitment"]
    assert first_a["current_card"] == first_b["current_card"]
    end_a = play_out(client, mine, rng)
    progress = race_of(client, race_id)
    ana_row = next(r for r in progress["racers"] if r["name"] == "ana")
    assert (
        ana_row["state"] == end_a["status"] and ana_row["placements"] == end_a["placements_count"]
    )
    assert progress["status"] == "running" and not set(card_codes(progress))
    # Until the race is over, nobody learns another racer's game from the race.
    assert [r["game_id"] for r in progress["racers"]] == [None, None]
    end_b = play_out(client, theirs, rng)
    done = wait_for(lambda: race_of(client, race_id), lambda r: r["status"] == "finished")
    ends = {"ana": end_a, "bob": end_b}

    def key(name: str) -> tuple[bool, int, str]:
        game = ends[name]
        return game["status"] != "won", -(game["score"] or 0), game["finished_at"]

    assert [r["name"] for r in done["racers"]] == sorted(ends, key=key)
    assert [r["rank"] for r in done["racers"]] == [1, 2]
    assert commitment_of(done["reveal"]) == race["deck_commitment"]
    # Over: each racer names its game (a guest's ana, an account's bob).
    games = {r["name"]: (r["game_id"], r["registered"]) for r in done["racers"]}
    assert games == {"ana": (mine["id"], False), "bob": (theirs["id"], True)}
    # Every racer's game is public, with the deal's reveal.
    public = client.get(f"/games/{mine['id']}").json()
    assert public["reveal"] == done["reveal"]
    assert client.get(f"/games/{theirs['id']}/placements").status_code == 200
    # The account's figures count the race; a guest has no player page.
    figures = client.get("/players/BOB/races").json()
    bob_rank = next(r["rank"] for r in done["racers"] if r["name"] == "bob")
    assert (figures["races_played"], figures["races_won"]) == (1, int(bob_rank == 1))
    assert [(r["race_id"], r["rank"], r["racers"]) for r in figures["races"]] == [
        (race_id, bob_rank, 2)
    ]
    # The player's page counts it too, as it counts their games.
    stats = client.get("/players/bob").json()["stats"]
    assert (stats["races_played"], stats["races_won"]) == (1, int(bob_rank == 1))
    assert client.get("/players/me", headers=bo).json()["stats"]["races_played"] == 1
    assert client.get("/players/ana/races").json()["code"] == "player_not_found"


def test_a_racers_game_is_sealed_from_everybody_else_until_the_race_ends(
    client: TestClient,
) -> None:
    race_id, ana, bo = two_racers(client, seats=2)
    game = running(client, race_id, ana)["your_game"]
    rng = random.Random(3)
    for _ in range(3):
        place(client, game, rng)
    for auth in ({}, bo):
        for path in ("", "/placements", "/events"):
            refused = client.get(f"/games/{game['id']}{path}", headers=auth)
            assert refused.status_code == 403, (path, refused.text)
            assert refused.json()["code"] == "race_game_private"
    hint = client.get(f"/games/{game['id']}/hint", headers=ana)
    assert hint.status_code == 409 and hint.json()["code"] == "race_not_over"
    listed = client.get("/games", params={"status": "in_progress"}).json()["games"]
    assert game["id"] not in {g["game_id"] for g in listed}
    # Over before the race: still sealed, no reveal, no analysis (its hindsight is the deal).
    over = play_out(client, game, rng)
    assert over["reveal"] is None and client.get(f"/games/{game['id']}").status_code == 403
    analysis = client.post(f"/games/{game['id']}/analysis")
    assert analysis.status_code == 409 and analysis.json()["code"] == "race_not_over"
    # What anyone sees of the race: counts only, no card, no secret.
    for auth in ({}, bo, ana):
        body = client.get(f"/races/{race_id}", headers=auth).json()
        assert not set(card_codes(body)) and body["reveal"] is None
        assert "salt" not in json.dumps(body)


def test_the_opener_starts_the_race_and_refusals_are_problems(client: TestClient) -> None:
    race_id, ana, bo = two_racers(client, seats=4)
    refused = client.post(f"/races/{race_id}/start", headers=bo)
    assert refused.status_code == 403 and refused.json()["code"] == "invalid_token"
    again = client.post(f"/races/{race_id}/racers", json={"player": "Ana"})
    assert again.status_code == 409 and again.json()["code"] == "name_taken"
    started = client.post(f"/races/{race_id}/start", headers=ana)
    assert started.status_code == 200 and started.json()["status"] == "countdown"
    late = client.post(f"/races/{race_id}/racers", json={"player": "cyd"})
    assert late.status_code == 409 and late.json()["code"] == "race_not_open"
    twice = client.post(f"/races/{race_id}/start", headers=ana)
    assert twice.status_code == 409 and twice.json()["code"] == "race_not_open"
    early = client.post(f"/races/{race_id}/rematch", headers=ana)
    assert early.status_code == 409 and early.json()["code"] == "race_not_open"
    for path in ("/races/nope", "/races/5d0c2b1e-8a7f-4c3b-9e2d-1f0a6b5c4d3e/events"):
        missing = client.get(path)
        assert missing.status_code == 404 and missing.json()["code"] == "race_not_found"
    alone = client.post("/races", json={"player": "solo"}).json()
    lonely = client.post(f"/races/{alone['id']}/start", headers=bearer(alone["racer_token"]))
    assert lonely.status_code == 409 and lonely.json()["code"] == "race_not_open"
    bad = client.post("/races", json={"seats": 9})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_request"


def test_the_computer_races_a_player_to_the_end(client: TestClient) -> None:
    opened = client.post("/races", json={"player": "ana", "computer": True, "seats": 2}).json()
    ana = bearer(opened["racer_token"])
    assert [r["computer"] for r in opened["racers"]] == [False, True]
    game = running(client, opened["id"], ana)["your_game"]
    play_out(client, game, random.Random(5))
    done = wait_for(lambda: race_of(client, opened["id"]), lambda r: r["status"] == "finished")
    computer = next(r for r in done["racers"] if r["computer"])
    assert computer["state"] in {"won", "lost"} and computer["placements"] >= 16
    assert sorted(r["rank"] for r in done["racers"]) == [1, 2]


@pytest.fixture
def frozen() -> Iterator[clock.FrozenClock]:
    with clock.frozen(datetime.now(UTC)) as frozen_clock:
        yield frozen_clock


def test_the_time_limit_ends_unfinished_games_as_lost(
    client: TestClient, frozen: clock.FrozenClock
) -> None:
    race_id, ana, _ = two_racers(client, seats=2, time_limit=60)
    frozen.advance(seconds=1)
    game = running(client, race_id, ana)["your_game"]
    place(client, game, random.Random(1))
    frozen.advance(seconds=61)
    done = wait_for(lambda: race_of(client, race_id), lambda r: r["status"] == "finished")
    assert {r["state"] for r in done["racers"]} == {"lost"}
    assert [r["name"] for r in done["racers"]] == ["ana", "bob"]  # earlier end, then join
    ended = client.get(f"/games/{game['id']}").json()
    assert ended["end_reason"] == "abandoned" and ended["reveal"] == done["reveal"]


def test_a_rematch_is_one_new_race_for_every_racer(
    client: TestClient, frozen: clock.FrozenClock
) -> None:
    race_id, ana, bo = two_racers(client, seats=2, time_limit=60)
    frozen.advance(seconds=62)
    wait_for(lambda: race_of(client, race_id), lambda r: r["status"] == "finished")
    first = client.post(f"/races/{race_id}/rematch", headers=bo)
    second = client.post(f"/races/{race_id}/rematch", headers=ana)
    assert (first.status_code, second.status_code) == (201, 200)
    new = first.json()
    assert second.json()["id"] == new["id"] and new["id"] != race_id
    assert race_of(client, race_id)["next_race"] == new["id"]
    assert [r["name"] for r in new["racers"]] == ["ana", "bob"]
    assert new["deck_commitment"] != race_of(client, race_id)["deck_commitment"]
    assert race_of(client, new["id"], ana)["you"] == 1  # the same racer token
    outsider = client.post(f"/races/{race_id}/rematch")
    assert outsider.status_code == 403


def events_of(text: str) -> list[tuple[int | None, str, Any]]:
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        fields = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        if "event" in fields:
            number = int(fields["id"]) if "id" in fields else None
            events.append((number, fields["event"], json.loads(fields["data"])))
    return events


def test_the_race_stream_tells_the_race_and_resumes_after_last_event_id(
    client: TestClient,
) -> None:
    race_id, ana, bo = two_racers(client, seats=2)
    rng = random.Random(11)
    for auth in (ana, bo):
        play_out(client, running(client, race_id, auth)["your_game"], rng)
    wait_for(lambda: race_of(client, race_id), lambda r: r["status"] == "finished")
    whole = events_of(client.get(f"/races/{race_id}/events").text)
    assert [number for number, _, _ in whole] == list(range(1, len(whole) + 1))
    kinds = [kind for _, kind, _ in whole]
    assert kinds[:4] == ["joined", "joined", "countdown", "started"] and kinds[-1] == "result"
    assert kinds.count("finished") == 2 and "progress" in kinds
    # Each progress counts the placement just made: 1, 2, ... for each racer.
    for number in (1, 2):
        counts = [
            d["placements"] for _, kind, d in whole if kind == "progress" and d["racer"] == number
        ]
        assert counts == list(range(1, len(counts) + 1)), counts
    result = whole[-1][2]
    assert [r["rank"] for r in result["racers"]] == [1, 2]
    assert commitment_of(result) == race_of(client, race_id)["deck_commitment"]
    before_result = [
        card for _, kind, data in whole if kind != "result" for card in card_codes(data)
    ]
    assert not before_result
    resumed = client.get(f"/races/{race_id}/events", headers={"Last-Event-ID": "5"})
    assert events_of(resumed.text) == whole[5:]
    bad = client.get(f"/races/{race_id}/events", headers={"Last-Event-ID": "x"})
    assert bad.status_code == 422
