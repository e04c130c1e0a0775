"""The daily challenge through the HTTP API, on a clock the tests move (api.core.clock.frozen):
the day's deal and its commitment, one attempt per player, the reveal withheld until the day
closes and verifying after, the day's board, hints and late placements refused."""

from __future__ import annotations

import hashlib
import json
import re
import uuid
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import SecretStr

from api.app import create_app
from api.core.database import Database
from api.core.days import daily_deal
from api.games import expiry
from api.games.challenge_day import DAY_PATTERN, FIRST_DAY
from api.settings import Settings
from engine import Game, replay
from engine.player.advice import Budget, Policy, advise
from testkit import clock as fake_clock
from tests.api.test_hidden_information import card_codes, keys
from tests.support.fairplay import boarded

SECRET = "challenge-test-secret"
DAY = date(2026, 12, 1)
MORNING = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
DEAL = daily_deal(SECRET.encode(), DAY)


@pytest.fixture
def app(database_url: str) -> FastAPI:
    settings = Settings(
        database_url=database_url, migrate_on_start=False, challenge_secret=SecretStr(SECRET)
    )
    return create_app(settings)


@pytest.fixture
def frozen() -> Iterator[fake_clock.FrozenClock]:
    with fake_clock.frozen(MORNING) as frozen_clock:
        yield frozen_clock


def register(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return {"Authorization": f"Bearer {response.json()['key']}"}


def start(client: TestClient, auth: dict[str, str], **headers: str) -> httpx.Response:
    response: httpx.Response = client.post(
        "/games", json={"challenge": "daily"}, headers={**auth, **headers}
    )
    return response


def commitment_of(reveal: dict[str, Any]) -> str:
    recipe = f"{reveal['salt']}:{','.join(reveal['deck'])}"
    return hashlib.sha256(recipe.encode()).hexdigest()


def readme_recipe(client: TestClient) -> Any:
    """The README's recipe that checks a closed day's reveal, pointed at the test app."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    match = re.search(r"<!-- verify-challenge -->\n```python\n(.*?)```", readme, re.DOTALL)
    assert match, "the README lost its challenge verification recipe"
    namespace: dict[str, Any] = {}
    exec(compile(match.group(1), "README.md", "exec"), namespace)
    namespace["httpx"] = type("H", (), {"get": staticmethod(lambda url: client.get(url))})
    return namespace["verify_day"]


def line(deck: tuple[str, ...], detour: int | None = None) -> list[tuple[int, int]]:
    """The computer player's placements on ``deck`` (it sees only the public state), taking
    its second choice at placement ``detour`` for another line of play."""
    game = Game(list(deck))
    positions: list[tuple[int, int]] = []
    while not game.is_over:
        advice = advise(game.public_view(), policy=Policy.BEST, budget=Budget(placements=300))
        options = advice.estimates
        chosen = options[1] if detour == len(positions) and len(options) > 1 else options[0]
        positions.append((chosen.position.row, chosen.position.col))
        game.place(positions[-1])
    return positions


def play(
    client: TestClient, game_id: str, auth: dict[str, str], positions: list[tuple[int, int]]
) -> list[httpx.Response]:
    """Every placement's response, the last one sent with an Idempotency-Key."""
    responses = []
    for number, (row, col) in enumerate(positions, start=1):
        extra = {"Idempotency-Key": f"last-{game_id}"} if number == len(positions) else {}
        placed = client.post(
            f"/games/{game_id}/placements",
            json={"row": row, "col": col},
            headers={**auth, **extra},
        )
        assert placed.status_code == 201, placed.text
        responses.append(placed)
    return responses


def test_two_secrets_and_two_days_give_different_deals() -> None:
    # Only the secret and the date decide the deal: the same pair always gives the same one.
    assert daily_deal(SECRET.encode(), DAY) == DEAL
    other_day = daily_deal(SECRET.encode(), date(2026, 12, 2))
    other_secret = daily_deal(b"another secret", DAY)
    for other in (other_day, other_secret):
        assert other.deck != DEAL.deck and other.commitment != DEAL.commitment
        assert other.salt != DEAL.salt and other.seed != DEAL.seed
    assert sorted(DEAL.deck) == sorted(other_day.deck) and len(set(DEAL.deck)) == 40
    assert commitment_of({"deck": DEAL.deck, "salt": DEAL.salt}) == DEAL.commitment


def test_the_date_pattern_admits_exactly_the_real_dates_from_the_first_day() -> None:
    # The OpenAPI document states this pattern: whatever matches it must be a date the
    # service accepts as well-formed (a client or a fuzzer never gets a surprise 422).
    day, last = date(2025, 12, 1), date(2100, 3, 1)
    while day < last:
        admitted = DAY_PATTERN.fullmatch(day.isoformat()) is not None
        assert admitted == (FIRST_DAY <= day <= date(2099, 12, 31)), day
        day += timedelta(days=1)
    for nonsense in ("2026-02-29", "2026-04-31", "2026-13-01", "2100-02-29", "2026-1-05", "0"):
        assert DAY_PATTERN.fullmatch(nonsense) is None, nonsense
    assert DAY_PATTERN.fullmatch("2028-02-29") and DAY_PATTERN.fullmatch("today")


def test_the_days_page_publishes_the_commitment_before_anyone_plays(
    client: TestClient, frozen: fake_clock.FrozenClock
) -> None:
    today = client.get("/challenges/today")
    assert today.status_code == 200
    assert today.json() == {
        "date": "2026-12-01",
        "deck_commitment": DEAL.commitment,
        "played": 0,
        "won": 0,
        "your_game_id": None,
        "opens_at": "2026-12-01T00:00:00Z",
        "closes_at": "2026-12-02T00:00:00Z",
        "closed": False,
        "reveal": None,
    }
    assert client.get("/challenges/2026-12-01").json() == today.json()
    # A day gone by is revealed, and its reveal verifies against its commitment.
    yesterday = client.get("/challenges/2026-11-30").json()
    assert yesterday["closed"] is True
    assert commitment_of(yesterday["reveal"]) == yesterday["deck_commitment"]
    assert yesterday["deck_commitment"] != DEAL.commitment
    # A day to come is not open; nonsense and days before the first challenge are refused.
    future = client.get("/challenges/2026-12-02")
    assert future.status_code == 404 and future.json()["code"] == "challenge_not_open"
    for bad in ("2026-13-01", "yesterday", "2026-1-05", "20261201", "2025-12-31", "0001-01-01"):
        refused = client.get(f"/challenges/{bad}")
        assert refused.status_code == 422, bad
        assert refused.json()["code"] == "invalid_challenge_date", bad
    # Each for its true reason: a day that does not exist is not called a day without one.
    for bad, reason in [
        ("2026-13-45", "is not a day of the calendar"),
        ("2026-02-29", "is not a day of the calendar"),
        ("2026-W49-1", "is not a day of the calendar"),
        ("2025-12-31", "has no challenge"),
    ]:
        assert reason in client.get(f"/challenges/{bad}").json()["detail"], bad
    # The day turns at midnight UTC, on the service's clock.
    frozen.set(datetime(2026, 12, 1, 23, 59, 59, tzinfo=UTC))
    assert client.get("/challenges/today").json()["date"] == "2026-12-01"
    frozen.advance(seconds=1)
    assert client.get("/challenges/today").json()["date"] == "2026-12-02"
    assert client.get("/challenges/2026-12-01").json()["closed"] is True


def test_a_challenge_needs_a_player_key(client: TestClient, frozen: fake_clock.FrozenClock) -> None:
    for body in ({"challenge": "daily"}, {"challenge": "daily", "player": "guest"}):
        refused = client.post("/games", json=body)
        assert refused.status_code == 401
        assert refused.json()["code"] == "player_key_required"
        assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    wrong = client.post(
        "/games", json={"challenge": "daily"}, headers={"Authorization": "Bearer nope"}
    )
    assert wrong.status_code == 403 and wrong.json()["code"] == "invalid_token"
    unknown = client.post("/games", json={"challenge": "weekly"}, headers=register(client, "ana"))
    assert unknown.status_code == 422 and unknown.json()["code"] == "invalid_request"
    assert client.get("/challenges/today").json()["played"] == 0


def test_one_attempt_per_player_per_day(client: TestClient, frozen: fake_clock.FrozenClock) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    first = start(client, ana)
    assert first.status_code == 201, first.text
    game = first.json()
    assert game["player"] == "ana" and game["challenge_date"] == "2026-12-01"
    assert game["deck_commitment"] == DEAL.commitment
    assert game["current_card"]["code"] == DEAL.deck[0] and game["reveal"] is None

    again = start(client, ana)
    assert again.status_code == 409
    assert again.json()["code"] == "challenge_already_played"
    assert again.json()["game_id"] == game["id"]
    # Under another Idempotency-Key too; the first key replays its game.
    key = str(uuid.uuid4())
    keyed = start(client, ana, **{"Idempotency-Key": key})
    assert keyed.status_code == 409 and keyed.json()["code"] == "challenge_already_played"
    assert start(client, ana, **{"Idempotency-Key": key}).json() == keyed.json()

    # Everybody gets the same deal; ordinary games still get their own. A keyed creation
    # replays its game (token included) and makes no second one.
    bobs_key = str(uuid.uuid4())
    theirs = start(client, bob, **{"Idempotency-Key": bobs_key}).json()
    replayed = start(client, bob, **{"Idempotency-Key": bobs_key})
    assert replayed.status_code == 201 and replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json() == theirs
    assert theirs["deck_commitment"] == DEAL.commitment
    assert theirs["current_card"] == game["current_card"]
    ordinary = client.post("/games", headers=ana).json()
    assert ordinary["deck_commitment"] != DEAL.commitment and ordinary["challenge_date"] is None
    assert client.get("/challenges/today").json()["played"] == 2

    # A challenge game is a game of its player.
    stats = client.get("/players/ana").json()["stats"]
    assert stats["games_played"] == 2 and stats["games_in_progress"] == 2
    listed = client.get("/players/ana/games").json()["games"]
    assert game["id"] in {entry["id"] for entry in listed}

    # The next day is a new challenge, open to ana again.
    frozen.advance(days=1)
    tomorrow = start(client, ana)
    assert tomorrow.status_code == 201
    assert tomorrow.json()["challenge_date"] == "2026-12-02"
    assert (
        tomorrow.json()["deck_commitment"]
        == daily_deal(SECRET.encode(), date(2026, 12, 2)).commitment
    )
    assert client.get("/challenges/2026-12-01").json()["played"] == 2


def test_the_deal_stays_sealed_until_the_day_closes_then_verifies(
    client: TestClient, frozen: fake_clock.FrozenClock
) -> None:
    ana = register(client, "ana")
    created = start(client, ana)
    game_id, token = created.json()["id"], created.json()["token"]
    positions = line(DEAL.deck)
    responses = [created, *play(client, game_id, ana, positions)]
    last = responses[-1].json()["game"]
    assert last["status"] in {"won", "lost"} and last["reveal"] is None

    # Everything its player can read while the day is open, with the game's token or the key.
    for auth in (ana, {"Authorization": f"Bearer {token}"}):
        read = client.get(f"/games/{game_id}", headers=auth)
        assert read.status_code == 200
        assert read.headers["Cache-Control"] == "private, no-cache"
        assert "-sealed" in read.headers["ETag"]
        responses += [read, client.get(f"/games/{game_id}/placements", headers=auth)]
    replayed = client.post(
        f"/games/{game_id}/placements",
        json=dict(zip(("row", "col"), positions[-1], strict=True)),
        headers={**ana, "Idempotency-Key": f"last-{game_id}"},
    )
    assert replayed.headers.get("Idempotent-Replayed") == "true"
    responses += [replayed, client.get("/challenges/today"), client.get("/leaderboard")]
    responses += [client.get("/players/ana/games"), client.get("/leaderboard?challenge=today")]
    played = set(DEAL.deck[: len(positions)])
    for response in responses:
        body = response.json()
        text = response.text + json.dumps(dict(response.headers))
        assert set(card_codes(body)) <= played, response.url
        assert not {"deck", "seed", "salt", "state"} & set(keys(body)), response.url
        assert DEAL.salt not in text and DEAL.seed not in text
        assert ",".join(DEAL.deck[len(positions) :]) not in text
    # Nobody else may read the game or its history, even with another game's token.
    other = client.post("/games", json={"player": "eve"}).json()["token"]
    for headers in ({}, {"Authorization": f"Bearer {other}"}, register(client, "eve")):
        for path in (f"/games/{game_id}", f"/games/{game_id}/placements"):
            refused = client.get(path, headers=headers)
            assert refused.status_code == 403, path
            assert refused.json()["code"] == "challenge_game_private"
            assert DEAL.deck[0] not in refused.text
    sealed_etag = client.get(f"/games/{game_id}", headers=ana).headers["ETag"]

    # The day closes: the game is public and revealed, and verifies against the commitment
    # published before anyone played.
    frozen.set(datetime(2026, 12, 2, 0, 0, tzinfo=UTC))
    opened = client.get(f"/games/{game_id}", headers={"If-None-Match": sealed_etag})
    assert opened.status_code == 200
    if opened.json()["status"] == "won":
        # Its rank moves, and its fair-play word: revalidated, the ETag names both.
        won = opened.json()
        assert opened.headers["Cache-Control"] == "no-cache"
        rank = f".r{won['rank']}" if won["rank"] else ""
        assert opened.headers["ETag"] == f'"v{won["version"]}{rank}.{won["fair_play"]["status"]}"'
    else:
        assert opened.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert opened.headers["ETag"] == f'"v{opened.json()["version"]}"'
    reveal = opened.json()["reveal"]
    assert reveal == {"deck": list(DEAL.deck), "salt": DEAL.salt}
    assert commitment_of(reveal) == opened.json()["deck_commitment"] == DEAL.commitment
    day = client.get("/challenges/2026-12-01").json()
    assert day["closed"] is True and day["reveal"] == reveal and day["played"] == 1
    assert readme_recipe(client)("", "2026-12-01") is True
    assert day["won"] == (1 if last["status"] == "won" else 0)
    history = client.get(f"/games/{game_id}/placements")
    assert history.status_code == 200
    moves = [(p["row"], p["col"]) for p in history.json()["placements"]]
    again = replay(reveal["deck"], moves)
    assert again.status.value == opened.json()["status"] and again.score == opened.json()["score"]
    # The stored view was rendered again: read twice, it is the same.
    assert client.get(f"/games/{game_id}").json() == opened.json()


def test_no_hints_and_no_placements_after_the_close(
    client: TestClient, database: Database, frozen: fake_clock.FrozenClock
) -> None:
    bob = register(client, "bob")
    created = start(client, bob).json()
    game_id = created["id"]
    client.post(f"/games/{game_id}/placements", json={"row": 0, "col": 0}, headers=bob)
    hint = client.get(f"/games/{game_id}/hint", headers=bob)
    assert hint.status_code == 403 and hint.json()["code"] == "challenge_no_hints"
    after = client.get(f"/games/{game_id}", headers=bob).json()
    assert after["assisted"] is False and after["version"] == 2

    frozen.set(datetime(2026, 12, 2, 0, 0, 1, tzinfo=UTC))
    target = after["legal_placements"][0]
    late = client.post(f"/games/{game_id}/placements", json=target, headers=bob)
    assert late.status_code == 409 and late.json()["code"] == "challenge_closed"
    still = client.get(f"/games/{game_id}").json()  # public now; in progress, no reveal
    assert still["version"] == 2 and still["reveal"] is None
    # The next expiry ends it as abandoned, however recently it was played: the attempt is
    # lost, and its player's stats say so.
    ordinary = client.post("/games", headers=bob).json()
    assert expiry.expire_untouched(database, timedelta(hours=168)) == 1
    assert expiry.expire_untouched(database, timedelta(hours=168)) == 0
    ended = client.get(f"/games/{game_id}").json()
    assert (ended["status"], ended["end_reason"]) == ("lost", "abandoned")
    assert commitment_of(ended["reveal"]) == DEAL.commitment
    assert client.get(f"/games/{ordinary['id']}").json()["status"] == "in_progress"
    stats = client.get("/players/bob").json()["stats"]
    assert (stats["games_lost"], stats["games_in_progress"]) == (1, 1)


def test_the_days_board_ranks_its_won_games(
    client: TestClient, frozen: fake_clock.FrozenClock
) -> None:
    games: list[dict[str, Any]] = []
    lines = [line(DEAL.deck, detour) for detour in (None, 0, 1, 2, 3, None)]
    lines.append([(0, 0), (0, 1), (0, 2), (0, 3), (1, 0)])  # a short game, lost or unfinished
    for number, positions in enumerate(lines):
        auth = register(client, f"player{number}")
        created = start(client, auth).json()
        play(client, created["id"], auth, positions)
        game = client.get(f"/games/{created['id']}", headers=auth).json()
        if game["status"] == "won":  # the computer's own lines: the suite's moderator clears them
            boarded(client, created["id"], auth, clear=True)
        games.append(game)
        frozen.advance(seconds=7 if number != 4 else 0)  # player4 ties player3's finish
    won = [g for g in games if g["status"] == "won"]
    assert len(won) >= 4  # the computer player wins this deal on most lines
    expected = [
        (g["id"], g["score"])
        for g in sorted(won, key=lambda g: (-g["score"], g["finished_at"], g["id"]))
    ]
    pages, cursor = [], None
    while True:
        query = "/leaderboard?challenge=2026-12-01&limit=2" + (
            f"&cursor={cursor}" if cursor else ""
        )
        page = client.get(query)
        assert page.status_code == 200, page.text
        pages.append(page.json())
        cursor = page.json()["next_cursor"]
        if cursor is None:
            break
    entries = [entry for page in pages for entry in page["entries"]]
    assert [(e["game_id"], e["score"]) for e in entries] == expected
    assert [e["rank"] for e in entries] == list(range(1, len(expected) + 1))
    assert client.get("/leaderboard?challenge=today").json()["entries"] == entries[:20]

    # A cursor belongs to its day's board.
    first_cursor = pages[0]["next_cursor"]
    frozen.advance(days=1)
    for query in (
        f"/leaderboard?challenge=2026-12-02&cursor={first_cursor}",
        f"/leaderboard?cursor={first_cursor}",
        "/leaderboard?challenge=2026-12-01&cursor=forged.cursor",
    ):
        refused = client.get(query)
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_cursor", query
    ordinary = client.get("/leaderboard?limit=2").json()["next_cursor"]
    refused = client.get(f"/leaderboard?challenge=2026-12-01&cursor={ordinary}")
    assert refused.status_code == 422 and refused.json()["code"] == "invalid_cursor"
    future = client.get("/leaderboard?challenge=2026-12-09")
    assert future.status_code == 404 and future.json()["code"] == "challenge_not_open"
    bad = client.get("/leaderboard?challenge=2026-02-30")
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_challenge_date"
    assert client.get("/leaderboard?challenge=2026-12-02").json()["entries"] == []
    # The day's page counts them too.
    day = client.get("/challenges/2026-12-01").json()
    assert (day["played"], day["won"]) == (len(lines), len(won))


def test_a_challenge_game_is_analysed_only_once_its_day_closes(
    client: TestClient, frozen: fake_clock.FrozenClock
) -> None:
    ana = register(client, "ana")
    game_id = start(client, ana).json()["id"]
    play(client, game_id, ana, line(DEAL.deck))
    for method in ("post", "get"):
        refused = client.request(method, f"/games/{game_id}/analysis")
        assert refused.status_code == 409 and refused.json()["code"] == "challenge_day_open"
        assert not any(card in refused.text for card in DEAL.deck)
    frozen.set(datetime(2026, 12, 2, 0, 0, 1, tzinfo=UTC))
    assert client.post(f"/games/{game_id}/analysis").status_code in (200, 202)


def test_a_players_key_learns_their_game_of_the_day(
    client: TestClient, frozen: fake_clock.FrozenClock
) -> None:
    ana = register(client, "ana")
    anonymous = client.get("/challenges/today")
    assert anonymous.json()["your_game_id"] is None
    assert anonymous.headers["vary"] == "Authorization"
    assert client.get("/challenges/today", headers=ana).json()["your_game_id"] is None
    game_id = start(client, ana).json()["id"]
    for path in ("/challenges/today", f"/challenges/{DAY.isoformat()}"):
        assert client.get(path, headers=ana).json()["your_game_id"] == game_id
        assert client.get(path).json()["your_game_id"] is None
    bob = register(client, "bob")
    assert client.get("/challenges/today", headers=bob).json()["your_game_id"] is None
    refused = client.get("/challenges/today", headers={"Authorization": "Bearer fsp.nope"})
    assert refused.status_code == 403 and refused.json()["code"] == "invalid_token"
    listed = client.get("/players/ana/games").json()["games"]
    assert [(g["id"], g["challenge_date"]) for g in listed] == [(game_id, DAY.isoformat())]
    frozen.advance(seconds=1)
    client.post("/games", headers=ana)
    assert client.get("/players/ana/games").json()["games"][0]["challenge_date"] is None
