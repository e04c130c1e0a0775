"""Answers that carry a secret shown once, retried after a lost answer: registration, key
rotation, opening, joining and rematching a race, against a real ``foursquare serve`` process
on SQLite and on PostgreSQL.

Each first request is sent over a bare socket that is closed without reading the answer (a
client whose connection dropped, a proxy's 502); the test waits until the server has stored
the answer (the ``idempotency_keys`` row is complete), then retries with the same
``Idempotency-Key``: the retry is the replay, with the same secret, and the account, name or
seat works with it. The stored row is read to check that it holds no secret in clear."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from testkit import databases
from testkit.server import Server, running_server
from tests.conftest import BACKENDS, needs_postgres
from tests.support.raw_http import post_request, send_and_drop

DEADLINE = 60.0
RACE_SETTINGS = {
    "FOURSQUARE_RACE_COUNTDOWN_SECONDS": "0.2",
    "FOURSQUARE_RACE_COMPUTER_SECONDS": "0.02",
    "FOURSQUARE_HINT_PLACEMENTS": "300",
    # Twenty retries at once from one address, and the tests' own requests around them.
    "FOURSQUARE_RATE_LIMIT_ENABLED": "false",
}


class Served:
    """A server and its database, read directly (as an operator, or a thief, would)."""

    def __init__(self, server: Server, url: str) -> None:
        self.server = server
        self.engine = create_engine(url)
        self.http = httpx.Client(base_url=server.base_url, timeout=DEADLINE)

    def stored(self, scope: str) -> list[dict[str, Any]]:
        """The ``idempotency_keys`` rows of ``scope``, every column."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                text("SELECT * FROM idempotency_keys WHERE scope = :scope"), {"scope": scope}
            )
            return [dict(row) for row in rows.mappings()]

    def count(self, sql: str, **parameters: object) -> int:
        with self.engine.connect() as connection:
            return int(connection.execute(text(sql), parameters).scalar_one())


@pytest.fixture(scope="module", params=BACKENDS)
def served(
    request: pytest.FixtureRequest,
    _postgres_status: str | None,
    _templates: databases.Templates,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Served]:
    if request.param == "postgresql":
        needs_postgres(_postgres_status)
    with (
        _templates.database(request.param, tmp_path_factory.mktemp("retried")) as url,
        running_server(url, migrate_on_start=False, extra_env=RACE_SETTINGS) as server,
    ):
        found = Served(server, url)
        yield found
        found.http.close()
        found.engine.dispose()


def new_key() -> str:
    return str(uuid.uuid4())


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def drop(served: Served, path: str, body: object, headers: dict[str, str]) -> None:
    """Send a POST and close the connection without reading a byte of the answer."""
    send_and_drop(served.server.port, post_request(path, body, headers), DEADLINE)


def answered(served: Served, scope: str) -> dict[str, Any]:
    """Wait until the one key of ``scope`` holds its request's answer; that row."""
    deadline = time.monotonic() + DEADLINE
    while True:
        rows = served.stored(scope)
        if rows and rows[0]["status_code"] is not None:
            assert len(rows) == 1, rows
            return rows[0]
        assert time.monotonic() < deadline, f"no answer stored for {scope}: {rows}"
        time.sleep(0.05)


def assert_sealed(row: dict[str, Any], *secrets: str) -> None:
    """The stored answer is the ciphertext, holding none of ``secrets`` in clear."""
    assert row["response_sealed"] in (True, 1)
    whole = json.dumps(row, default=str)
    for secret in secrets:
        assert secret not in whole
    with pytest.raises(json.JSONDecodeError):
        json.loads(row["response_body"])  # not the JSON answer


def post(served: Served, path: str, body: object, headers: dict[str, str]) -> httpx.Response:
    return (
        served.http.post(path, json=body, headers=headers)
        if body is not None
        else (served.http.post(path, headers=headers))
    )


def retried(
    served: Served, scope: str, path: str, body: object, headers: dict[str, str]
) -> tuple[httpx.Response, dict[str, Any]]:
    """Drop the request, wait for its stored answer, retry it: the retry and the row."""
    drop(served, path, body, headers)
    row = answered(served, scope)
    retry = post(served, path, body, headers)
    assert retry.headers.get("idempotent-replayed") == "true", retry.text
    return retry, row


def all_at_once(
    served: Served, path: str, body: object, headers: dict[str, str], times: int = 20
) -> list[httpx.Response]:
    """``times`` identical requests sent at once, then one more once they are all answered."""
    with ThreadPoolExecutor(times) as pool:
        sent = list(pool.map(lambda _: post(served, path, body, headers), range(times)))
    for response in sent:
        busy = response.status_code == 409 and response.json()["code"] == "request_in_progress"
        assert busy or response.status_code in (200, 201), response.text
    return [*sent, post(served, path, body, headers)]


def one_answer(responses: list[httpx.Response], field: str) -> Any:
    """The one answer every successful response is (the original and its replays)."""
    done = [r for r in responses if r.status_code in (200, 201)]
    assert done and done[-1] is responses[-1]  # the last, after them all, is answered
    assert len({r.json()[field] for r in done}) == 1
    assert sum("idempotent-replayed" not in r.headers for r in done) <= 1
    return done[-1].json()


def refused_as_reused(response: httpx.Response) -> None:
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "idempotency_key_reused"


def register(served: Served, name: str) -> str:
    response = served.http.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return str(response.json()["key"])


def me(served: Served, key: str) -> httpx.Response:
    return served.http.get("/players/me", headers=bearer(key))


# ---------------------------------------------------------------- registration


def test_a_registration_whose_answer_was_lost_is_retried_for_its_key(served: Served) -> None:
    idempotency = {"Idempotency-Key": new_key()}
    retry, row = retried(served, "players", "/players", {"name": "lost1"}, idempotency)
    assert retry.status_code == 201 and retry.headers["location"] == "/players/lost1"
    key = retry.json()["key"]
    assert me(served, key).json()["name"] == "lost1"  # the account is usable with it
    assert_sealed(row, key)
    refused_as_reused(served.http.post("/players", json={"name": "lost2"}, headers=idempotency))
    assert served.http.get("/players/lost2").status_code == 404


def test_twenty_concurrent_registrations_with_one_key_register_once(served: Served) -> None:
    idempotency = {"Idempotency-Key": new_key()}
    responses = all_at_once(served, "/players", {"name": "crowd"}, idempotency)
    key = one_answer(responses, "key")["key"]
    assert me(served, key).json()["name"] == "crowd"


# ---------------------------------------------------------------- rotation


def test_a_rotation_whose_answer_was_lost_is_retried_for_its_key(served: Served) -> None:
    old = register(served, "rotor")
    idempotency = {"Idempotency-Key": new_key()}
    retry, row = retried(
        served, "player-key:rotor", "/players/rotor/key", None, bearer(old) | idempotency
    )
    assert retry.status_code == 200
    new = retry.json()["key"]
    assert_sealed(row, new, old)
    # The same key with another credential (the new key) is another request.
    refused_as_reused(served.http.post("/players/rotor/key", headers=bearer(new) | idempotency))
    assert me(served, new).json()["name"] == "rotor"  # the account is usable with it
    assert me(served, old).status_code == 403  # and the new key's use retired the old one


def test_twenty_concurrent_rotations_with_one_key_rotate_once(served: Served) -> None:
    old = register(served, "spinner")
    idempotency = {"Idempotency-Key": new_key()}
    responses = all_at_once(served, "/players/spinner/key", None, bearer(old) | idempotency)
    new = one_answer(responses, "key")["key"]
    assert me(served, new).status_code == 200 and me(served, old).status_code == 403


def test_without_a_key_the_old_key_works_until_the_new_one_is_used(served: Served) -> None:
    old = register(served, "keyless")
    # A rotation without an Idempotency-Key whose answer was lost: the new key is unknown.
    drop(served, "/players/keyless/key", None, bearer(old))
    deadline = time.monotonic() + DEADLINE
    while (
        served.count(
            "SELECT count(*) FROM player_keys k JOIN players p ON p.id = k.player_id "
            "WHERE p.name = 'keyless' AND k.previous_hash IS NOT NULL"
        )
        == 0
    ):
        assert time.monotonic() < deadline, "the dropped rotation never committed"
        time.sleep(0.05)
    # The old key still works, and rotates again for a key the client does read.
    assert me(served, old).json()["name"] == "keyless"
    assert served.http.post("/games", headers=bearer(old)).status_code == 201
    again = served.http.post("/players/keyless/key", headers=bearer(old))
    assert again.status_code == 200
    new = again.json()["key"]
    assert me(served, old).status_code == 200  # not yet used: still the old key's account
    assert served.http.post("/games", headers=bearer(new)).status_code == 201
    refused = me(served, old)
    assert refused.status_code == 403 and refused.json()["code"] == "invalid_token"
    assert me(served, new).json()["name"] == "keyless"


# ---------------------------------------------------------------- races


def test_opening_a_race_whose_answer_was_lost_is_retried_for_its_token(served: Served) -> None:
    idempotency = {"Idempotency-Key": new_key()}
    retry, row = retried(served, "races", "/races", {"player": "opener"}, idempotency)
    assert retry.status_code == 201
    race = retry.json()
    token = race["racer_token"]
    assert retry.headers["location"] == f"/races/{race['id']}"
    seen = served.http.get(f"/races/{race['id']}", headers=bearer(token)).json()
    assert seen["you"] == 1 and [r["name"] for r in seen["racers"]] == ["opener"]
    assert_sealed(row, token)
    refused_as_reused(served.http.post("/races", json={"player": "other"}, headers=idempotency))
    sql = "SELECT count(*) FROM race_racers WHERE name IN ('opener', 'other')"
    assert served.count(sql) == 1


def test_twenty_concurrent_race_openings_with_one_key_open_one_race(served: Served) -> None:
    idempotency = {"Idempotency-Key": new_key()}
    responses = all_at_once(served, "/races", {"player": "crowded"}, idempotency)
    race = one_answer(responses, "racer_token")
    assert served.count("SELECT count(*) FROM race_racers WHERE name = 'crowded'") == 1
    seen = served.http.get(f"/races/{race['id']}", headers=bearer(race["racer_token"])).json()
    assert seen["you"] == 1


def open_race(served: Served, name: str, **rules: object) -> tuple[str, str]:
    opened = served.http.post("/races", json={"player": name, **rules})
    assert opened.status_code == 201, opened.text
    return opened.json()["id"], opened.json()["racer_token"]


def test_joining_a_race_whose_answer_was_lost_is_retried_for_its_token(served: Served) -> None:
    race_id, _ = open_race(served, "host")
    idempotency = {"Idempotency-Key": new_key()}
    path = f"/races/{race_id}/racers"
    scope = f"race:{uuid.UUID(race_id).hex}"
    retry, row = retried(served, scope, path, {"player": "guest1"}, idempotency)
    assert retry.status_code == 201
    token = retry.json()["racer_token"]
    seen = served.http.get(f"/races/{race_id}", headers=bearer(token)).json()
    assert seen["you"] == 2 and [r["name"] for r in seen["racers"]] == ["host", "guest1"]
    assert_sealed(row, token)
    refused_as_reused(served.http.post(path, json={"player": "guest2"}, headers=idempotency))
    assert len(served.http.get(f"/races/{race_id}").json()["racers"]) == 2


def test_twenty_concurrent_joins_with_one_key_take_one_seat(served: Served) -> None:
    race_id, _ = open_race(served, "hall", seats=8)
    idempotency = {"Idempotency-Key": new_key()}
    path = f"/races/{race_id}/racers"
    responses = all_at_once(served, path, {"player": "joiner"}, idempotency)
    token = one_answer(responses, "racer_token")["racer_token"]
    seen = served.http.get(f"/races/{race_id}", headers=bearer(token)).json()
    assert seen["you"] == 2 and [r["name"] for r in seen["racers"]] == ["hall", "joiner"]


def finished_race(served: Served, name: str) -> tuple[str, str]:
    """A race of the guest ``name`` against the computer, played out to its end."""
    race_id, token = open_race(served, name, computer=True, level="beginner", seats=2)
    deadline = time.monotonic() + DEADLINE
    while True:
        race = served.http.get(f"/races/{race_id}", headers=bearer(token)).json()
        if race["status"] == "finished":
            return race_id, token
        game = race["your_game"]
        if game is not None:
            state = served.http.get(f"/games/{game['id']}", headers=bearer(token)).json()
            if state["status"] == "in_progress":
                placed = served.http.post(
                    f"/games/{game['id']}/placements",
                    json=state["legal_placements"][0],
                    headers=bearer(token),
                )
                assert placed.status_code in (201, 409, 412), placed.text
                continue
        assert time.monotonic() < deadline, race
        time.sleep(0.05)


def test_a_rematch_whose_answer_was_lost_is_retried_for_its_race(served: Served) -> None:
    race_id, token = finished_race(served, "again")
    idempotency = {"Idempotency-Key": new_key()}
    path = f"/races/{race_id}/rematch"
    scope = f"race:{uuid.UUID(race_id).hex}"
    retry, row = retried(served, scope, path, None, bearer(token) | idempotency)
    assert retry.status_code == 201
    new = retry.json()["id"]
    assert served.http.get(f"/races/{race_id}").json()["next_race"] == new
    # The racer's seat in the new race, with the same token.
    assert served.http.get(f"/races/{new}", headers=bearer(token)).json()["you"] == 1
    assert_sealed(row, token)
    other = served.http.post(path, headers=idempotency)  # another credential (none)
    refused_as_reused(other)


def test_twenty_concurrent_rematches_with_one_key_open_one_race(served: Served) -> None:
    race_id, token = finished_race(served, "repeat")
    idempotency = {"Idempotency-Key": new_key()}
    path = f"/races/{race_id}/rematch"
    responses = all_at_once(served, path, None, bearer(token) | idempotency)
    new = one_answer(responses, "id")["id"]
    assert responses[-1].status_code == 201  # the opener's answer, replayed
    assert served.http.get(f"/races/{race_id}").json()["next_race"] == new
    assert served.http.get(f"/races/{new}", headers=bearer(token)).json()["you"] == 1
