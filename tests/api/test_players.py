"""Player accounts: registration and name rules, keys, impersonation, the player's games."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.accounts import store as accounts_store
from api.core.database import Database
from api.settings import Settings
from tests.integrity.players import winning_lines
from tests.support.fairplay import boarded


@pytest.fixture
def settings(database_url: str) -> Settings:
    """A small hint budget, so that the tests stay quick."""
    return Settings(database_url=database_url, migrate_on_start=False, hint_placements=300)


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def register(client: TestClient, name: str) -> str:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    key: str = response.json()["key"]
    return key


def problem_code(response: Any) -> str:
    assert response.headers["content-type"] == "application/problem+json", response.text
    code: str = response.json()["code"]
    return code


def player_count(database: Database) -> int:
    with database.reading() as connection:
        names = ["ana", "bob", "ana_1", "ab", "anonymous"]
        return sum(accounts_store.name_key_taken(connection, name) for name in names)


def test_registration_shows_the_key_once_and_the_page_shows_no_secret(client: TestClient) -> None:
    response = client.post("/players", json={"name": "Ana_1"})
    assert response.status_code == 201
    assert response.headers["location"] == "/players/Ana_1"
    body = response.json()
    assert body["name"] == "Ana_1" and body["key"].startswith("fsp.")
    page = client.get("/players/ana_1")  # any case
    assert page.status_code == 200
    assert "key" not in page.json() and body["key"] not in page.text
    assert page.json()["stats"] == {
        "games_played": 0,
        "games_won": 0,
        "games_lost": 0,
        "games_in_progress": 0,
        "win_rate": None,
        "best_score": None,
        "mean_winning_score": None,
        "current_streak": 0,
        "longest_streak": 0,
        "last_played_at": None,
        "races_played": 0,
        "races_won": 0,
    }


def test_names_are_unique_ignoring_case_and_width(client: TestClient) -> None:
    register(client, "ana")
    for taken in ["ana", "ANA", "Ana"]:
        response = client.post("/players", json={"name": taken})
        assert response.status_code == 409 and problem_code(response) == "name_taken", taken
    # Full-width letters are refused, not rewritten (the name is exactly the documented
    # pattern); the answer names the ASCII form.
    for wide, ascii_form in [("\uff41\uff4e\uff41", "ana"), ("\uff22\uff2f\uff22", "BOB")]:
        response = client.post("/players", json={"name": wide})
        assert response.status_code == 422 and problem_code(response) == "invalid_player_name"
        assert f"write it as {ascii_form!r}" in response.json()["detail"]
    # Pages are found by any case or width of the name.
    assert client.get("/players/\uff41\uff4e\uff41").json()["name"] == "ana"


@pytest.mark.parametrize(
    "name",
    [
        "ab",  # too short
        "a" * 25,  # too long
        "an\u200ba",  # zero-width space
        "an\u00ada",  # soft hyphen
        "\u0430na",  # Cyrillic a: a look-alike of "ana"
        "an\u0430",  # mixed scripts
        "a na",
        "ana!",
        "an\u202eana",  # bidi override
        "\u00e9ric",  # a non-ASCII letter
        "\uff41\uff4e\uff41",  # full-width
        "a" * 65,
        "\ufb01x",  # the ligature fi: NFKC would make it "fix", still refused
        "",
    ],
)
def test_invalid_names_are_refused_and_register_nothing(
    client: TestClient, database: Database, name: str
) -> None:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 422 and problem_code(response) == "invalid_player_name"
    assert player_count(database) == 0


def test_the_guests_default_name_cannot_be_registered(client: TestClient) -> None:
    response = client.post("/players", json={"name": "Anonymous"})
    assert response.status_code == 409 and problem_code(response) == "name_reserved"
    assert client.post("/games").status_code == 201


@pytest.mark.parametrize(
    ("guest_name", "status", "code"),
    [
        ("ana", 409, "name_taken"),
        ("ANA", 409, "name_taken"),
        ("AnA", 409, "name_taken"),
        # Guests follow the accounts' rule (ASCII): every other form is refused as such.
        (" Ana ", 422, "invalid_player_name"),
        ("\uff41\uff4e\uff41", 422, "invalid_player_name"),  # full-width
        ("an\u00ada", 422, "invalid_player_name"),  # soft hyphen inside
        ("an\u200ba", 422, "invalid_player_name"),  # zero-width space
        ("\u212bna", 422, "invalid_player_name"),  # Angstrom sign
        ("\u0430n\u0430", 422, "invalid_player_name"),  # Cyrillic a: looks like "ana"
        ("\u0391N\u0391", 422, "invalid_player_name"),  # Greek capital alpha
        ("\u0430n\u0430s", 422, "invalid_player_name"),
        ("anabel", 201, None),
    ],
)
def test_a_guest_cannot_play_under_a_registered_name(
    client: TestClient, guest_name: str, status: int, code: str | None
) -> None:
    register(client, "ana")
    response = client.post("/games", json={"player": guest_name})
    assert response.status_code == status, response.text
    if code is not None:
        assert problem_code(response) == code
    else:
        assert response.json()["player"] == guest_name.strip()


def test_a_player_key_makes_the_game_theirs(client: TestClient) -> None:
    key = register(client, "Ana")
    bob = register(client, "bob")
    for body in (None, {"player": "ANA"}, {"player": "aNa"}):
        response = client.post("/games", json=body, headers=bearer(key))
        assert response.status_code == 201, response.text
        assert response.json()["player"] == "Ana"
    mismatch = client.post("/games", json={"player": "bob"}, headers=bearer(key))
    assert mismatch.status_code == 422 and problem_code(mismatch) == "player_name_mismatch"
    guest = client.post("/games", json={"player": "carol"}).json()
    for wrong in (guest["token"], key + "x", "fsp.00000000000000000000000000000000.x", "junk"):
        refused = client.post("/games", headers=bearer(wrong))
        assert refused.status_code == 403 and problem_code(refused) == "invalid_token"
    page = client.get("/players/ana").json()
    assert page["stats"]["games_played"] == 3 and page["stats"]["games_in_progress"] == 3
    assert client.get("/players/bob").json()["stats"]["games_played"] == 0
    assert len(client.get("/players/ANA/games").json()["games"]) == 3
    assert bob != key


def test_placements_and_hints_take_the_player_key_or_the_game_token(client: TestClient) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    created = client.post("/games", headers=bearer(ana)).json()
    game, token = created["id"], created["token"]
    guest = client.post("/games", json={"player": "guest"}).json()

    def place(secret: str, game_id: str = game) -> Any:
        target = client.get(f"/games/{game_id}").json()["legal_placements"][0]
        return client.post(f"/games/{game_id}/placements", json=target, headers=bearer(secret))

    assert place(ana).status_code == 201
    assert place(token).status_code == 201
    refused = place(bob)
    assert refused.status_code == 403 and problem_code(refused) == "invalid_token"
    assert place(ana, guest["id"]).status_code == 403  # a key is no use on a guest's game
    assert client.get(f"/games/{game}/hint", headers=bearer(ana)).status_code == 200
    assert client.get(f"/games/{game}/hint", headers=bearer(token)).status_code == 200
    assert client.get(f"/games/{game}/hint", headers=bearer(bob)).status_code == 403
    assert client.get(f"/games/{game}").json()["placements_count"] == 2


def test_a_rotated_key_works_until_the_new_one_is_first_used(client: TestClient) -> None:
    old = register(client, "ana")
    created = client.post("/games", headers=bearer(old)).json()
    missing = client.post("/players/ana/key")
    assert missing.status_code == 401 and problem_code(missing) == "missing_token"
    assert missing.headers["www-authenticate"].startswith("Bearer")
    unknown = client.post("/players/nobody/key", headers=bearer(old))
    assert unknown.status_code == 404 and problem_code(unknown) == "player_not_found"
    bob = register(client, "bob")
    assert client.post("/players/ana/key", headers=bearer(bob)).status_code == 403

    rotated = client.post("/players/ANA/key", headers=bearer(old))
    assert rotated.status_code == 200
    unread = rotated.json()["key"]
    assert rotated.json()["name"] == "ana" and unread != old

    # The answer may have been lost: the old key still plays, starts games and rotates.
    target = created["legal_placements"][0]
    path = f"/games/{created['id']}/placements"
    assert client.post(path, json=target, headers=bearer(old)).status_code == 201
    assert client.post("/games", headers=bearer(old)).status_code == 201
    again = client.post("/players/ana/key", headers=bearer(old))
    assert again.status_code == 200
    new = again.json()["key"]
    assert new not in (old, unread)
    # Rotating again with the old key replaced the key nobody read.
    refused = client.post("/games", headers=bearer(unread))
    assert refused.status_code == 403 and problem_code(refused) == "invalid_token"

    # The new key's first use retires the old one.
    assert client.post("/games", headers=bearer(new)).status_code == 201
    target = client.get(f"/games/{created['id']}").json()["legal_placements"][0]
    assert client.post(path, json=target, headers=bearer(old)).status_code == 403
    assert client.post("/games", headers=bearer(old)).status_code == 403
    late = client.post("/players/ana/key", headers=bearer(old))
    assert late.status_code == 403 and problem_code(late) == "invalid_token"
    assert client.post(path, json=target, headers=bearer(new)).status_code == 201
    # The game's own token is not the account's: it keeps working.
    target = client.get(f"/games/{created['id']}").json()["legal_placements"][0]
    assert client.post(path, json=target, headers=bearer(created["token"])).status_code == 201


def test_checking_the_new_key_retires_the_old_one(client: TestClient) -> None:
    old = register(client, "ana")
    new = client.post("/players/ana/key", headers=bearer(old)).json()["key"]
    # Reading with the old key leaves things as they are.
    assert client.get("/players/me", headers=bearer(old)).json()["name"] == "ana"
    assert client.get("/players/me", headers=bearer(old)).status_code == 200
    assert client.get("/players/me", headers=bearer(new)).json()["name"] == "ana"
    refused = client.get("/players/me", headers=bearer(old))
    assert refused.status_code == 403 and problem_code(refused) == "invalid_token"
    # Rotating with the current key keeps it as the old one, until the next is used.
    newer = client.post("/players/ana/key", headers=bearer(new)).json()["key"]
    assert client.post("/games", headers=bearer(new)).status_code == 201
    assert client.post("/games", headers=bearer(old)).status_code == 403
    assert client.post("/games", headers=bearer(newer)).status_code == 201
    assert client.post("/games", headers=bearer(new)).status_code == 403


def test_unknown_players_are_404(client: TestClient) -> None:
    for path in ("/players/nobody", "/players/nobody/games", "/players/x%E2%80%8By"):
        response = client.get(path)
        assert response.status_code == 404 and problem_code(response) == "player_not_found"


def play_out(client: TestClient, game: dict[str, Any], key: str, rng: random.Random) -> str:
    while game["status"] == "in_progress":
        target = rng.choice(game["legal_placements"])
        response = client.post(f"/games/{game['id']}/placements", json=target, headers=bearer(key))
        assert response.status_code == 201, response.text
        game = response.json()["game"]
    status: str = game["status"]
    return status


def all_pages(client: TestClient, name: str, status: str | None = None) -> list[dict[str, Any]]:
    games: list[dict[str, Any]] = []
    cursor = None
    while True:
        params: dict[str, Any] = {"limit": 3}
        if status is not None:
            params["status"] = status
        if cursor is not None:
            params["cursor"] = cursor
        page = client.get(f"/players/{name}/games", params=params).json()
        games += page["games"]
        cursor = page["next_cursor"]
        if cursor is None:
            return games


def test_the_games_page_lists_newest_first_by_status_with_cursors(client: TestClient) -> None:
    key = register(client, "ana")
    register(client, "bob")
    rng = random.Random(7)
    statuses: dict[str, str] = {}
    for number in range(8):
        game = client.post("/games", headers=bearer(key)).json()
        statuses[game["id"]] = (
            "in_progress" if number % 3 == 0 else play_out(client, game, key, rng)
        )
    every = all_pages(client, "ana")
    assert [g["id"] for g in every] == list(reversed(statuses))  # newest first, no repeats
    assert {g["id"]: g["status"] for g in every} == statuses
    for status in ("in_progress", "won", "lost"):
        listed = all_pages(client, "ANA", status)
        assert [g["id"] for g in listed] == [i for i in reversed(statuses) if statuses[i] == status]

    first = client.get("/players/ana/games", params={"limit": 2}).json()
    cursor = first["next_cursor"]
    assert cursor is not None
    for params in (
        {"cursor": cursor, "status": "lost"},  # another listing's cursor
        {"cursor": cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BB")},  # forged
        {"cursor": "junk"},
    ):
        refused = client.get("/players/ana/games", params=params)
        assert refused.status_code == 422 and problem_code(refused) == "invalid_cursor"
    other = client.get("/players/bob/games", params={"cursor": cursor})
    assert other.status_code == 422 and problem_code(other) == "invalid_cursor"
    leaderboard = client.get("/leaderboard", params={"cursor": cursor})
    assert leaderboard.status_code == 422 and problem_code(leaderboard) == "invalid_cursor"
    bad = client.get("/players/ana/games", params={"status": "abandoned"})
    assert bad.status_code == 422 and problem_code(bad) == "invalid_request"


def test_won_games_of_a_player_count_in_stats_and_on_the_leaderboard(
    client: TestClient, database: Database
) -> None:
    from testkit.games import start_game

    key = register(client, "ana")
    with database.reading() as connection:
        player = accounts_store.get_player_by_name_key(connection, "ana")
    assert player is not None
    lines = winning_lines()[:3]
    for line in lines:
        with database.transaction() as session:
            created = start_game(session, "ana", deck=line.deck, player_id=player.id)
            game_id = str(created.id)
        for row, col in line.positions:
            response = client.post(
                f"/games/{game_id}/placements", json={"row": row, "col": col}, headers=bearer(key)
            )
            assert response.status_code == 201, response.text
        assert response.json()["game"]["status"] == "won"
        boarded(client, game_id)  # the fair-play review's word first
    stats = client.get("/players/ana").json()["stats"]
    scores = [line.score for line in lines]
    assert stats["games_won"] == 3 and stats["current_streak"] == stats["longest_streak"] == 3
    assert stats["best_score"] == max(scores)
    assert stats["mean_winning_score"] == sum(scores) / 3
    assert stats["win_rate"] == 1.0
    entries = client.get("/leaderboard").json()["entries"]
    assert sorted(e["player"] for e in entries) == ["ana"] * 3


def test_a_keyed_game_creation_is_replayed_for_the_same_player_only(client: TestClient) -> None:
    ana, bob = register(client, "ana"), register(client, "bob")
    idempotency = {"Idempotency-Key": "1b4e28ba-2fa1-41d2-883f-0016d3cca427"}
    first = client.post("/games", headers=bearer(ana) | idempotency)
    again = client.post("/games", headers=bearer(ana) | idempotency)
    assert first.status_code == again.status_code == 201
    assert again.headers["idempotent-replayed"] == "true"
    assert again.json()["id"] == first.json()["id"] and first.json()["player"] == "ana"
    assert client.get("/players/ana").json()["stats"]["games_played"] == 1
    other = client.post("/games", headers=bearer(bob) | idempotency)
    assert other.status_code == 422 and problem_code(other) == "idempotency_key_reused"
    guest = client.post("/games", headers=idempotency)
    assert guest.status_code == 422 and problem_code(guest) == "idempotency_key_reused"
    # A guest under a registered name, keyed: refused, and nothing stored.
    taken = client.post(
        "/games",
        json={"player": "ANA"},
        headers={"Idempotency-Key": "2c5f39cb-3fb2-42e3-994f-1127e4ddb538"},
    )
    assert taken.status_code == 409 and problem_code(taken) == "name_taken"


def test_a_keyed_creation_is_not_replayed_to_a_key_rotated_out_since(client: TestClient) -> None:
    old = register(client, "ana")
    idempotency = {"Idempotency-Key": "3d6a4adc-40c3-43f4-aa5f-2238f5eec649"}
    first = client.post("/games", headers=bearer(old) | idempotency)
    assert first.status_code == 201
    new = client.post("/players/ana/key", headers=bearer(old)).json()["key"]
    # Until the new key is used the old one is still the account's: replayed to.
    replay = client.post("/games", headers=bearer(old) | idempotency)
    assert replay.status_code == 201 and replay.headers["idempotent-replayed"] == "true"
    assert client.get("/players/me", headers=bearer(new)).status_code == 200
    replay = client.post("/games", headers=bearer(old) | idempotency)
    assert replay.status_code == 403 and problem_code(replay) == "invalid_token"
    assert first.json()["token"] not in replay.text and first.json()["id"] not in replay.text
    again = client.post("/games", headers=bearer(new) | idempotency)
    assert again.status_code == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]


def test_an_abandoned_game_counts_as_a_loss_and_ends_the_streak(
    client: TestClient, database: Database
) -> None:
    from datetime import timedelta

    from api.games import expiry

    key = register(client, "ana")
    client.post("/games", headers=bearer(key))
    client.post("/games", json={"player": "guest"})
    assert expiry.expire_untouched(database, timedelta(0)) == 2
    stats = client.get("/players/ana").json()["stats"]
    assert stats["games_lost"] == 1 and stats["games_in_progress"] == 0
    assert stats["current_streak"] == 0 and stats["win_rate"] == 0.0
    [game] = client.get("/players/ana/games", params={"status": "lost"}).json()["games"]
    assert game["end_reason"] == "abandoned"


def test_a_key_reads_its_own_players_page_and_nothing_else(client: TestClient) -> None:
    key = register(client, "ana")
    client.post("/games", headers=bearer(key))
    mine = client.get("/players/me", headers=bearer(key))
    assert mine.status_code == 200
    assert mine.json() == client.get("/players/ana").json()
    assert mine.json()["stats"]["games_played"] == 1
    missing = client.get("/players/me")
    assert missing.status_code == 401 and problem_code(missing) == "missing_token"
    game_token = client.post("/games").json()["token"]
    for wrong in ("fsp.nothing", game_token, key + "x"):
        refused = client.get("/players/me", headers=bearer(wrong))
        assert refused.status_code == 403 and problem_code(refused) == "invalid_token"
    new = client.post("/players/ana/key", headers=bearer(key)).json()["key"]
    assert client.get("/players/me", headers=bearer(new)).json()["name"] == "ana"
    assert client.get("/players/me", headers=bearer(key)).status_code == 403
