"""Several named keys per account, recovery codes, and the limits on failed sign-ins (issue
51), on both databases: keys are listed without their secrets, made for another device,
revoked (never the last), and work everywhere a player's key does; a recovery code gives a
key once; wrong codes are refused in words and then limited, untried."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from api.app import create_app
from api.core.database import Database
from api.settings import Settings


@pytest.fixture
def settings(database_url: str) -> Settings:
    generous: dict[str, Any] = {
        f"rate_limit_{category}{suffix}": "1000/minute"
        for category in ("create", "place", "hint", "read")
        for suffix in ("", "_per_address")
    }
    return Settings(
        database_url=database_url,
        migrate_on_start=False,
        # On (the suite turns rate limits off), generous but for the failed sign-ins.
        rate_limit_enabled=True,
        **generous,
        sign_in_failures="3/hour",
        sign_in_failures_per_address="1000/hour",
    )


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["code"] == code and body["detail"], body
    return body


def register(client: TestClient, name: str) -> dict[str, Any]:
    response = client.post("/players", json={"name": name, "key_name": "laptop"})
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_keys_are_listed_made_and_revoked_but_never_the_last(
    client: TestClient, database: Database
) -> None:
    ana = register(client, "ana")
    first = ana["key"]
    listed = client.get("/players/ana/credentials", headers=bearer(first))
    assert listed.status_code == 200, listed.text
    body = listed.json()
    assert [(k["name"], k["this_key"]) for k in body["keys"]] == [("laptop", True)]
    assert body["recovery_codes_left"] == 10 and body["passkeys"] == []
    assert first not in listed.text

    made = client.post("/players/ana/keys", json={"name": "phone"}, headers=bearer(first))
    assert made.status_code == 201, made.text
    phone = made.json()["key"]
    assert phone != first and made.json()["name"] == "phone"
    # The new key works everywhere a key does: the account's page, a game, its placements.
    assert client.get("/players/me", headers=bearer(phone)).json()["name"] == "ana"
    game = client.post("/games", json={}, headers=bearer(phone))
    assert game.status_code == 201, game.text
    placed = client.post(
        f"/games/{game.json()['id']}/placements", json={"row": 0, "col": 0}, headers=bearer(first)
    )
    assert placed.status_code == 201, placed.text

    keys = client.get("/players/ana/credentials", headers=bearer(phone)).json()["keys"]
    assert [(k["name"], k["this_key"]) for k in keys] == [("laptop", False), ("phone", True)]
    assert keys[1]["last_used_at"] is not None  # it started a game
    # No secret at rest: the table holds hashes only.
    with database.reading() as connection:
        stored = connection.execute(text("SELECT key_hash FROM player_keys")).scalars().all()
    assert len(stored) == 2 and first not in stored and phone not in stored

    # Bob's key manages nothing of Ana's.
    bob = register(client, "bob")["key"]
    problem(client.get("/players/ana/credentials", headers=bearer(bob)), 403, "invalid_token")
    problem(
        client.delete(f"/players/ana/keys/{keys[0]['id']}", headers=bearer(bob)),
        403,
        "invalid_token",
    )
    problem(client.get("/players/ana/credentials"), 401, "missing_token")

    revoked = client.delete(f"/players/ana/keys/{keys[0]['id']}", headers=bearer(phone))
    assert revoked.status_code == 204, revoked.text
    problem(client.get("/players/me", headers=bearer(first)), 403, "invalid_token")
    problem(
        client.delete(f"/players/ana/keys/{keys[0]['id']}", headers=bearer(phone)),
        404,
        "key_not_found",
    )
    last = problem(
        client.delete(f"/players/ana/keys/{keys[1]['id']}", headers=bearer(phone)), 409, "last_key"
    )
    assert "only key" in last["detail"]
    assert client.get("/players/me", headers=bearer(phone)).status_code == 200

    # Rotation replaces the secret of the key that signs it, keeping its name; the old secret
    # works until the new one is first used (a rotation whose answer was lost strands nobody).
    rotated = client.post("/players/ana/key", headers=bearer(phone))
    assert rotated.status_code == 200, rotated.text
    fresh = rotated.json()["key"]
    keys = client.get("/players/ana/credentials", headers=bearer(fresh)).json()["keys"]
    assert [k["name"] for k in keys] == ["phone"]
    assert client.get("/players/me", headers=bearer(phone)).status_code == 200
    assert client.get("/players/me", headers=bearer(fresh)).status_code == 200
    problem(client.get("/players/me", headers=bearer(phone)), 403, "invalid_token")


def test_a_rotated_keys_old_secret_works_until_its_new_one_is_used_and_no_other_keys(
    client: TestClient,
) -> None:
    laptop = register(client, "ana")["key"]
    made = client.post("/players/ana/keys", json={"name": "phone"}, headers=bearer(laptop))
    phone = made.json()["key"]
    game = client.post("/games", json={}, headers=bearer(phone)).json()
    path = f"/games/{game['id']}/placements"

    def target() -> Any:
        return client.get(f"/games/{game['id']}").json()["legal_placements"][0]

    unread = client.post("/players/ana/key", headers=bearer(phone)).json()["key"]
    # That answer was lost: the old secret rotates again, replacing the one nobody read.
    rotated = client.post("/players/ana/key", headers=bearer(phone))
    assert rotated.status_code == 200, rotated.text
    new = rotated.json()["key"]
    problem(client.post("/games", json={}, headers=bearer(unread)), 403, "invalid_token")
    # The old secret still plays the key's games (read with the game: its key row's hashes).
    assert client.post(path, json=target(), headers=bearer(phone)).status_code == 201
    # Another key's use retires nothing of this one's.
    assert client.post("/games", json={}, headers=bearer(laptop)).status_code == 201
    assert client.get("/players/me", headers=bearer(phone)).status_code == 200
    # The new secret's first use retires the old one, and only that.
    assert client.post("/games", json={}, headers=bearer(new)).status_code == 201
    problem(client.post(path, json=target(), headers=bearer(phone)), 403, "invalid_token")
    problem(client.get("/players/me", headers=bearer(phone)), 403, "invalid_token")
    assert client.post(path, json=target(), headers=bearer(new)).status_code == 201
    assert client.post(path, json=target(), headers=bearer(laptop)).status_code == 201
    keys = client.get("/players/ana/credentials", headers=bearer(new)).json()["keys"]
    assert [(k["name"], k["this_key"]) for k in keys] == [("laptop", False), ("phone", True)]


def test_a_recovery_code_gives_a_key_once(client: TestClient) -> None:
    ana = register(client, "ana")
    codes = ana["recovery_codes"]
    assert len(codes) == 10 and len(set(codes)) == 10
    # Typed in another case, with spaces: the same code.
    typed = codes[3].upper().replace("-", " ")
    recovered = client.post(
        "/sign-in/recovery-code", json={"name": "ANA", "code": typed, "key_name": "new phone"}
    )
    assert recovered.status_code == 201, recovered.text
    key = recovered.json()["key"]
    assert client.get("/players/me", headers=bearer(key)).json()["name"] == "ana"
    again = client.post("/sign-in/recovery-code", json={"name": "ana", "code": codes[3]})
    problem(again, 403, "invalid_recovery_code")
    listed = client.get("/players/ana/credentials", headers=bearer(key)).json()
    assert listed["recovery_codes_left"] == 9
    assert [k["name"] for k in listed["keys"]] == ["laptop", "new phone"]

    # New codes replace the old set.
    renewed = client.post("/players/ana/recovery-codes", headers=bearer(key))
    assert renewed.status_code == 201, renewed.text
    assert len(renewed.json()["recovery_codes"]) == 10
    problem(
        client.post("/sign-in/recovery-code", json={"name": "ana", "code": codes[0]}),
        403,
        "invalid_recovery_code",
    )
    fresh = renewed.json()["recovery_codes"][0]
    assert (
        client.post("/sign-in/recovery-code", json={"name": "ana", "code": fresh}).status_code
        == 201
    )


def test_wrong_codes_are_refused_in_words_then_limited_and_logged_without_the_code(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    ana = register(client, "ana")
    good = ana["recovery_codes"][0]
    caplog.set_level(logging.WARNING, "foursquare.sign_in")
    wrong = "aaaa-bbbb-cccc-dddd"
    for _ in range(3):
        refused = problem(
            client.post("/sign-in/recovery-code", json={"name": "ana", "code": wrong}),
            403,
            "invalid_recovery_code",
        )
        assert "not one of ana's unspent recovery codes" in refused["detail"]
    # The account's limit is used up: even the right code is not tried, and not spent.
    limited = client.post("/sign-in/recovery-code", json={"name": "ana", "code": good})
    body = problem(limited, 429, "sign_in_limited")
    assert "too many failed sign-ins" in body["detail"]
    assert int(limited.headers["retry-after"]) > 0
    assert wrong not in caplog.text and good not in caplog.text
    assert "recovery code for 'ana'" in caplog.text
    # Another account is not limited by Ana's failures.
    bob = register(client, "bob")
    assert (
        client.post(
            "/sign-in/recovery-code", json={"name": "bob", "code": bob["recovery_codes"][0]}
        ).status_code
        == 201
    )
    # An unknown name answers as its public page does, and nothing more.
    problem(
        client.post("/sign-in/recovery-code", json={"name": "nobody", "code": wrong}),
        404,
        "player_not_found",
    )
    problem(client.get("/players/nobody"), 404, "player_not_found")


def test_key_names_and_ids_are_checked(client: TestClient) -> None:
    key = register(client, "ana")["key"]
    problem(
        client.post("/players/ana/keys", json={"name": ""}, headers=bearer(key)),
        422,
        "invalid_request",
    )
    problem(
        client.post("/players/ana/keys", json={"name": "x" * 65}, headers=bearer(key)),
        422,
        "invalid_request",
    )
    problem(client.delete("/players/ana/keys/nope", headers=bearer(key)), 422, "invalid_request")
    problem(
        client.delete("/players/ana/passkeys/nope", headers=bearer(key)), 422, "invalid_request"
    )
    problem(
        client.post(
            "/sign-in/passkey",
            json={
                "challenge_id": "5b1e0c9d-7f3a-4e2b-9c8d-1a2b3c4d5e6f",
                "credential": {"id": "x"},
            },
        ),
        403,
        "passkey_refused",
    )


def test_failed_sign_ins_from_one_address_are_limited_whatever_the_name(
    database_url: str,
) -> None:
    generous: dict[str, Any] = {
        f"rate_limit_{category}{suffix}": "1000/minute"
        for category in ("create", "place", "hint", "read")
        for suffix in ("", "_per_address")
    }
    settings = Settings(
        database_url=database_url,
        migrate_on_start=False,
        rate_limit_enabled=True,
        **generous,
        sign_in_failures="1000/hour",
        sign_in_failures_per_address="2/hour",
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        ana, bob = register(client, "ana"), register(client, "bob")
        for name in ("ana", "bob"):
            problem(
                client.post("/sign-in/recovery-code", json={"name": name, "code": "nope"}),
                403,
                "invalid_recovery_code",
            )
        good = client.post(
            "/sign-in/recovery-code", json={"name": "bob", "code": bob["recovery_codes"][0]}
        )
        problem(good, 429, "sign_in_limited")
        # Refused untried: the code is still unspent, and nobody got a key.
        listed = client.get("/players/bob/credentials", headers=bearer(bob["key"])).json()
        assert listed["recovery_codes_left"] == 10 and len(listed["keys"]) == 1
        assert (
            len(client.get("/players/ana/credentials", headers=bearer(ana["key"])).json()["keys"])
            == 1
        )
