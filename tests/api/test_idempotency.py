"""Idempotency-Key: retries return the original response and change nothing."""

from __future__ import annotations

import json
import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from anyio.from_thread import BlockingPortal
from fastapi.testclient import TestClient
from sqlalchemy import Table, func, insert, select, update

from api.app import create_app
from api.core.database import Database
from api.core.models import (
    service_secrets,
)
from api.games.placing import placement_fingerprint
from api.games.tables import games, placements
from api.idempotency import store as idempotency_store
from api.idempotency.errors import RequestInProgress
from api.idempotency.sealing import ReplaySeal, Unreadable
from api.idempotency.service import RETENTION, Answer, IdempotentRequests, key_hash, purge_in
from api.idempotency.tables import idempotency_keys
from api.settings import Settings
from testkit import clock as fake_clock
from testkit.games import place_in
from tests.conftest import CreatedGame, MakeGame


def count(database: Database, table: Table) -> int:
    with database.reading() as session:
        return int(session.scalar(select(func.count()).select_from(table)) or 0)


def new_key() -> str:
    return str(uuid.uuid4())


def test_retrying_a_game_creation_returns_the_same_game(
    client: TestClient, database: Database
) -> None:
    headers = {"Idempotency-Key": new_key()}
    first = client.post("/games", json={"player": "ana"}, headers=headers)
    again = client.post("/games", json={"player": "ana"}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.json()["token"] == first.json()["token"]
    assert again.headers["location"] == first.headers["location"]
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    assert count(database, games) == 1


def test_the_stored_creation_holds_neither_the_key_nor_the_token(
    client: TestClient, database: Database
) -> None:
    key = new_key()
    created = client.post("/games", headers={"Idempotency-Key": key}).json()
    token = created["token"]
    with database.transaction() as session:
        row = session.execute(
            select(idempotency_keys).where(
                idempotency_keys.c.scope == "games", idempotency_keys.c.key_hash == key_hash(key)
            )
        ).first()
        assert row is not None and row.status_code == 201 and row.response_sealed
        stored = json.dumps(list(row), default=str)
        secret = session.scalar(
            select(service_secrets.c.value).where(service_secrets.c.name == "replay")
        )
    assert key not in stored and token not in stored
    assert created["deck_commitment"] not in stored  # the body is sealed whole
    assert secret is not None and secret not in stored
    body, where = row.response_body or "", f"games\0{row.key_hash}"

    # The whole answer opens with the server's replay secret and the key, and not without
    # either: neither the table, nor the table and the server's secret, give the token away.
    opened = json.loads(ReplaySeal(secret.encode()).open(body, key, where))
    assert opened == created
    for seal, guess in (
        (ReplaySeal(secret.encode()), row.key_hash),
        (ReplaySeal(secret.encode()), new_key()),
        (ReplaySeal(b"another secret"), key),
    ):
        with pytest.raises(Unreadable):
            seal.open(body, guess, where)
    with pytest.raises(Unreadable):  # bound to its row
        ReplaySeal(secret.encode()).open(body, key, f"game:x\0{row.key_hash}")


@pytest.mark.parametrize(
    "key",
    [
        "create-1",  # guessable
        "00000000-0000-0000-0000-000000000000",
        # Fixed values, not made at import time: each pytest-xdist worker must collect the
        # same test names.
        "cffdf492-edb0-11f1-b547-02fc00000001",  # uuid1: time and host, not random
        str(uuid.uuid5(uuid.NAMESPACE_DNS, "example.org")),
        "819f5b8f00d349fbb4af14e3ec38f8c",  # 31 hex digits of a uuid4: one short
    ],
)
def test_a_creation_key_that_could_be_guessed_is_refused(
    client: TestClient, database: Database, key: str
) -> None:
    response = client.post("/games", json={"player": "ana"}, headers={"Idempotency-Key": key})
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "invalid_request"
    assert problem["errors"][0]["loc"] == ["header", "idempotency-key"]
    assert "UUID (version 4)" in problem["errors"][0]["message"]
    assert count(database, games) == 0


def test_two_clients_with_the_same_body_get_their_own_games(client: TestClient) -> None:
    # Each client makes its own random key: nothing one of them sends reaches the other's game.
    one = client.post("/games", json={"player": "ana"}, headers={"Idempotency-Key": new_key()})
    two = client.post("/games", json={"player": "ana"}, headers={"Idempotency-Key": new_key()})
    assert one.status_code == two.status_code == 201
    assert one.json()["id"] != two.json()["id"]
    assert one.json()["token"] != two.json()["token"]


def test_same_key_with_another_body_is_422_idempotency_key_reused(
    client: TestClient, database: Database
) -> None:
    headers = {"Idempotency-Key": new_key()}
    assert client.post("/games", json={"player": "ana"}, headers=headers).status_code == 201
    response = client.post("/games", json={"player": "bob"}, headers=headers)
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    assert count(database, games) == 1


def test_retrying_a_placement_returns_the_original_and_places_nothing_more(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    headers = {**game.auth, "Idempotency-Key": "place-1"}
    first = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    again = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again.headers["etag"] == first.headers["etag"] == '"v2"'
    assert again.headers["idempotent-replayed"] == "true"
    assert count(database, placements) == 1
    # The replay is the original response even after the game moved on.
    client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=game.auth)
    later = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=headers)
    assert later.json() == first.json()
    assert count(database, placements) == 2


def test_a_placement_key_is_scoped_to_its_game(client: TestClient, make_game: MakeGame) -> None:
    one, two = make_game(), make_game()
    for game in (one, two):
        response = client.post(
            f"/games/{game.id}/placements",
            json={"row": 0, "col": 0},
            headers={**game.auth, "Idempotency-Key": "same-key"},
        )
        assert response.status_code == 201
        assert "idempotent-replayed" not in response.headers


def test_refused_placements_are_replayed_too(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    headers = {**game.auth, "Idempotency-Key": "bad-move"}
    first = client.post(f"/games/{game.id}/placements", json={"row": 1, "col": 1}, headers=headers)
    assert first.status_code == 422
    again = client.post(f"/games/{game.id}/placements", json={"row": 1, "col": 1}, headers=headers)
    assert again.status_code == 422
    assert again.json() == first.json()
    assert again.headers["content-type"] == "application/problem+json"
    assert again.headers["idempotent-replayed"] == "true"


def test_a_replay_needs_the_games_token(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    key = {"Idempotency-Key": "secret-ish"}
    client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers={**game.auth, **key}
    )
    response = client.post(f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers=key)
    assert response.status_code == 401


def test_a_retry_while_the_first_is_running_is_409(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    # The first request has claimed the key and not finished (as if still running).
    claim_origin_placement(database, game, "running", age=timedelta(0))
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": "running"},
    )
    assert response.status_code == 409
    assert response.json()["code"] == "request_in_progress"
    assert response.headers["retry-after"]
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 0


def test_a_claim_abandoned_by_a_crash_is_taken_over(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    # A process claimed the key five minutes ago and died before finishing.
    claim_origin_placement(database, game, "crashed", age=timedelta(minutes=5))
    response = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": "crashed"},
    )
    assert response.status_code == 201


@pytest.mark.parametrize("key", ["", "x" * 256, "has space", "tab\tkey", "é"])
def test_malformed_keys_are_invalid_requests(
    client: TestClient, make_game: MakeGame, key: str
) -> None:
    game = make_game()
    raw_key = key.encode("utf-8")
    placed = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 0},
        headers={**game.auth, "Idempotency-Key": raw_key},
    )
    for response in (placed,):
        assert response.status_code == 422
        problem = response.json()
        assert problem["code"] == "invalid_request"
        assert [error["loc"] for error in problem["errors"]] == [["header", "idempotency-key"]]
    assert client.get(f"/games/{game.id}").json()["placements_count"] == 0


def claim_origin_placement(database: Database, game: CreatedGame, key: str, age: timedelta) -> None:
    """Store an unfinished claim of ``key`` for placing a card at (0, 0), made ``age`` ago."""
    with database.transaction() as session:
        session.execute(
            insert(idempotency_keys).values(
                scope=f"game:{uuid.UUID(game.id).hex}",
                key_hash=key_hash(key),
                claim=CRASHED_CLAIM,
                fingerprint=placement_fingerprint(0, 0, game.token),
                status_code=None,
                response_body=None,
                response_headers=None,
                created_at=datetime.now(UTC) - age,
                completed_at=None,
            )
        )


CRASHED_CLAIM = "c" * 32


# SQLite runs one write transaction at a time (BEGIN IMMEDIATE), so two takeovers cannot
# interleave there at all; PostgreSQL's row locks are what these tests are about.
postgresql_only = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@postgresql_only
def test_of_two_takeovers_racing_for_a_stale_claim_exactly_one_wins(
    database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    claim_origin_placement(database, game, "crashed", age=timedelta(minutes=5))
    scope, hashed = f"game:{uuid.UUID(game.id).hex}", key_hash("crashed")
    both_saw_it_stale = threading.Barrier(2, timeout=30)
    results: dict[str, bool] = {}

    def take_over(claim: str) -> None:
        with database.transaction() as session:
            record = idempotency_store.get_idempotency_key(session, scope, hashed)
            assert record is not None and record.claim == CRASHED_CLAIM
            both_saw_it_stale.wait()
            results[claim] = idempotency_store.take_over_idempotency_claim(
                session, scope, hashed, record.claim, claim, datetime.now(UTC)
            )

    threads = [threading.Thread(target=take_over, args=(claim,)) for claim in ("a" * 32, "b" * 32)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results.values()) == [False, True]
    winner = next(claim for claim, won in results.items() if won)
    with database.transaction() as session:
        record = idempotency_store.get_idempotency_key(session, scope, hashed)
    assert record is not None and record.claim == winner


def _app_loop(client: TestClient) -> BlockingPortal:
    """The app's event loop, whose PostgreSQL connections the database's pool holds."""
    assert client.portal is not None
    return client.portal


@postgresql_only
def test_a_request_whose_claim_was_taken_over_stores_nothing(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    scope = f"game:{uuid.UUID(game.id).hex}"
    taker = "t" * 32

    claim = _app_loop(client).call(
        IdempotentRequests(database, ReplaySeal(b"test")).claim,
        scope,
        "slow",
        placement_fingerprint(0, 0, game.token),
    )
    assert claim.replay is None

    def slow_work() -> None:
        with database.transaction() as session:
            place_in(session, game.id, game.token, (0, 0))
            # While this request worked, its claim went stale and a retry took it over (in a
            # transaction of its own, as another process would).
            with database.transaction() as other:
                record = idempotency_store.get_idempotency_key(other, scope, key_hash("slow"))
                assert record is not None
                taken = idempotency_store.take_over_idempotency_claim(
                    other, scope, key_hash("slow"), record.claim, taker, datetime.now(UTC)
                )
                assert taken
            claim.complete(session, Answer(201, b"{}"))

    with pytest.raises(RequestInProgress):
        slow_work()
    assert count(database, placements) == 0  # its work was rolled back with the refusal
    with database.transaction() as session:
        record = idempotency_store.get_idempotency_key(session, scope, key_hash("slow"))
    # The key is still the taker's: unanswered, not released by the request that lost it.
    assert record is not None and record.claim == taker and record.status_code is None


def test_a_claim_is_taken_over_after_the_configured_stale_time_and_not_before(
    client: TestClient, database: Database
) -> None:
    # FOURSQUARE_IDEMPOTENCY_STALE_SECONDS: a claim left unanswered (its process died) is a
    # 409 for a retry until it is that old, then the retry takes it over.
    requests = IdempotentRequests(database, ReplaySeal(b"test"), stale_claim=timedelta(seconds=0.5))
    scope, fingerprint = f"game:{uuid.uuid4().hex}", "f" * 64
    first = _app_loop(client).call(requests.claim, scope, "key", fingerprint)
    assert first.replay is None  # claimed, and never answered: its process "died"
    with pytest.raises(RequestInProgress):
        _app_loop(client).call(requests.claim, scope, "key", fingerprint)
    with database.transaction() as session:
        record = idempotency_store.get_idempotency_key(session, scope, key_hash("key"))
        assert record is not None
        # Aged past the configured time (not past the default of 60 s).
        session.execute(
            update(idempotency_keys)
            .where(idempotency_keys.c.scope == scope)
            .values(created_at=record.created_at - timedelta(seconds=1))
        )
    taken = _app_loop(client).call(requests.claim, scope, "key", fingerprint)
    assert taken.replay is None
    with database.transaction() as session:
        record = idempotency_store.get_idempotency_key(session, scope, key_hash("key"))
    assert record is not None and record.claim != first.claim


def test_another_players_token_learns_nothing_about_a_games_keys(
    client: TestClient, make_game: MakeGame
) -> None:
    """Authorization comes first: with another game's token, a key already used on this game
    and one never used get the same refusal, and the unused one is not claimed."""
    game, other = make_game(), make_game()
    used = {"Idempotency-Key": "used-key"}
    first = client.post(
        f"/games/{game.id}/placements", json={"row": 0, "col": 0}, headers={**game.auth, **used}
    )
    assert first.status_code == 201
    answers = [
        client.post(
            f"/games/{game.id}/placements",
            json={"row": 0, "col": 1},
            headers={**other.auth, "Idempotency-Key": key},
        )
        for key in ("used-key", "unused-key")
    ]
    assert [answer.status_code for answer in answers] == [403, 403]
    assert {answer.json()["code"] for answer in answers} == {"invalid_token"}
    # The unused key is still the game's player's to use.
    mine = client.post(
        f"/games/{game.id}/placements",
        json={"row": 0, "col": 1},
        headers={**game.auth, "Idempotency-Key": "unused-key"},
    )
    assert mine.status_code == 201
    assert "idempotent-replayed" not in mine.headers


def test_a_kept_secret_is_deleted_when_its_window_ends(
    client: TestClient, database: Database
) -> None:
    key = new_key()
    first = client.post("/players", json={"name": "ana"}, headers={"Idempotency-Key": key})
    assert first.status_code == 201
    start = datetime.now(UTC)
    with fake_clock.frozen(start + RETENTION - timedelta(minutes=1)):
        assert _app_loop(client).call(database.write, purge_in) == 0  # within its window
        replay = client.post("/players", json={"name": "ana"}, headers={"Idempotency-Key": key})
        assert replay.headers["idempotent-replayed"] == "true"
        assert replay.json()["key"] == first.json()["key"]
    with fake_clock.frozen(start + RETENTION + timedelta(minutes=1)):
        # Past it, the key is new again, even before the purge deleted its row...
        late = client.post("/players", json={"name": "ana"}, headers={"Idempotency-Key": key})
        assert late.status_code == 409 and late.json()["code"] == "name_taken"
        assert first.json()["key"] not in late.text
        # ...and the purge that every server process runs deletes the rows past it.
    with fake_clock.frozen(start + 2 * RETENTION + timedelta(minutes=2)):
        assert _app_loop(client).call(database.write, purge_in) == 1
    with database.transaction() as session:
        assert session.scalar(select(func.count()).select_from(idempotency_keys)) == 0


def test_a_replay_sealed_under_another_secret_is_served_anew(
    client: TestClient, database: Database, settings: Settings
) -> None:
    # FOURSQUARE_REPLAY_SECRET changed within a window: the stored answer no longer opens,
    # and the retry is served as a new request (here: the name is taken by the first).
    key = new_key()
    first = client.post("/players", json={"name": "ana"}, headers={"Idempotency-Key": key})
    assert first.status_code == 201
    with database.transaction() as session:
        session.execute(
            update(service_secrets).where(service_secrets.c.name == "replay").values(value="x")
        )
    with TestClient(create_app(settings), raise_server_exceptions=False) as second:
        retry = second.post("/players", json={"name": "ana"}, headers={"Idempotency-Key": key})
    assert retry.status_code == 409 and retry.json()["code"] == "name_taken"
    assert first.json()["key"] not in retry.text
