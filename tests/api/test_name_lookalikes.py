"""Names that look alike are one name (api/core/names.py, Unicode TS #39 skeletons by ICU):
a guest cannot play under a look-alike of an account (since guests follow the accounts' ASCII
rule, a name outside it is refused as such, 422; an ASCII look-alike with 409), nobody can
register one, the
``per_player=best`` boards group wins by skeleton, and migration 0013_name_skeletons gives
existing accounts and wins their skeletons. Every test runs on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert, text

from api.app import create_app
from api.core import migrate
from api.core.database import Database
from api.core.names import name_skeleton
from api.games import HOOKS, GameFacts
from api.games.tables import games
from api.settings import Settings
from testkit import databases
from tests.support.fairplay import record_clean_review

# Each of these was accepted beside the account "alice" (issue 29): as a guest's name, and
# its wins were a separate entry on the per_player=best board.
LOOKALIKES_OF_ALICE = [
    "al\u034fice",  # combining grapheme joiner
    "ali\ufe00ce",  # variation selector 1
    "ali\ufe0fce",  # variation selector 16
    "ali\U000e0100ce",  # variation selector 17
    "ali\u17b4ce",  # Khmer vowel inherent AQ
    "ali\u180bce",  # Mongolian free variation selector
    "\u3164alice",  # Hangul filler
    "ali\uffa0ce",  # halfwidth Hangul filler
    "ali\u115fce",  # Hangul choseong filler
    "ali\u2800ce",  # braille pattern blank
    "a\u0301lice",  # combining acute accent
    "al\u0131ce",  # dotless i
    "\u0251lice",  # Latin alpha
    "\u1d00lice",  # Latin letter small capital A
    "aIice",  # capital I for l
    "AIice",
    "\u0430lice",  # Cyrillic a
    "ALICE",  # another case: the same name
]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def register(client: TestClient, name: str) -> Any:
    return client.post("/players", json={"name": name})


def test_every_case_has_the_skeleton_of_alice() -> None:
    for name in LOOKALIKES_OF_ALICE[:-1]:  # ALICE: the same name by its key (case)
        assert name_skeleton(name) == name_skeleton("alice"), name


@pytest.mark.parametrize("guest_name", LOOKALIKES_OF_ALICE)
def test_a_guest_cannot_play_under_a_lookalike_of_an_account(
    client: TestClient, guest_name: str
) -> None:
    key = register(client, "alice").json()["key"]
    refused = client.post("/games", json={"player": guest_name})
    assert refused.headers["content-type"] == "application/problem+json"
    if guest_name.isascii():
        assert refused.status_code == 409, refused.text
        assert refused.json()["code"] == "name_taken"
        assert "alice" in refused.json()["detail"].lower()
    else:
        assert refused.status_code == 422, refused.text
        assert refused.json()["code"] == "invalid_player_name"  # one voice for every name
    # The account's own name stays usable, with its key; other names stay free to guests.
    assert client.post("/games", json={"player": "alice"}, headers=bearer(key)).status_code == 201
    assert client.post("/games", json={"player": "bob"}).status_code == 201


@pytest.mark.parametrize("name", ["aIice", "a1ice", "ALICE", "Alice", "AIice"])
def test_a_lookalike_of_an_account_cannot_be_registered(client: TestClient, name: str) -> None:
    assert register(client, "alice").status_code == 201
    refused = register(client, name)
    assert refused.status_code == 409, refused.text
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "name_taken"
    assert client.get(f"/players/{name}").json().get("name") in (None, "alice")


def test_what_ts39_says_of_rn_and_m(client: TestClient) -> None:
    """The skeleton maps "m" to "rn": ``rnlice`` is not a look-alike of ``alice`` (nothing in
    them is confusable), but ``mlice`` and ``rnlice`` are one name."""
    assert name_skeleton("mlice") == name_skeleton("rnlice") != name_skeleton("alice")
    assert register(client, "alice").status_code == 201
    assert register(client, "rnlice").status_code == 201
    refused = register(client, "mlice")
    assert refused.status_code == 409 and "rnlice" in refused.json()["detail"]


def test_the_reserved_guest_name_has_no_lookalike_account(client: TestClient) -> None:
    assert register(client, "anonyrnous").status_code == 409  # rn: the skeleton of "m"


def win(database: Database, player: str, score: int, at: datetime) -> None:
    """A won game recorded on the boards as the service records one."""
    game_id = uuid.uuid4()
    with database.transaction() as session:
        session.execute(
            insert(games).values(
                id=game_id,
                player=player,
                token_hash="0" * 64,
                seed=None,
                salt="0" * 32,
                deck_commitment="0" * 64,
                state="{}",
                version=1,
                assisted=False,
                status="won",
                end_reason=None,
                score=score,
                placements_count=40 - score,
                created_at=at,
                updated_at=at,
                finished_at=at,
            )
        )
        facts = GameFacts(game_id, player, None, None, False, 40 - score, "won", score, at)
        HOOKS.earliest_end(session, facts)
        HOOKS.announce(HOOKS.ended, session, facts)
        record_clean_review(session, facts)


def best_entries(client: TestClient) -> list[tuple[str, int]]:
    board = client.get("/leaderboard", params={"per_player": "best", "limit": 50})
    assert board.status_code == 200, board.text
    return [(entry["player"], entry["score"]) for entry in board.json()["entries"]]


def test_guests_whose_names_look_alike_share_one_best_entry(
    client: TestClient, database: Database
) -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    win(database, "bill", 5, start)
    win(database, "b\u0131ll", 9, start + timedelta(minutes=1))  # dotless i
    win(database, "b\u034fill", 7, start + timedelta(minutes=2))
    win(database, "zed", 3, start + timedelta(minutes=3))
    assert best_entries(client) == [("b\u0131ll", 9), ("zed", 3)]


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def test_the_migration_gives_existing_accounts_and_wins_their_skeletons(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app) as client:
        start = datetime(2026, 3, 1, tzinfo=UTC)
        win(app.state.database, "alice", 6, start)
        win(app.state.database, "al\u034fice", 8, start + timedelta(minutes=1))
    # Back to 0012, where the boards grouped by the caseless name: two entries. Two accounts
    # whose names look alike are made there, as they could be before.
    migrate.downgrade(empty_url, "0012")
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            keys = connection.execute(text("SELECT player_key FROM leaderboard_bests")).scalars()
            assert len(set(keys)) == 2
            for number, name in enumerate(["bob1", "bobl", "alice"]):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, key_hash, created_at) "
                        "VALUES (:id, :name, :name, :hash, :at)"
                    ),
                    {
                        "id": uuid.uuid4().hex if "sqlite" in empty_url else str(uuid.uuid4()),
                        "name": name,
                        "hash": "0" * 64,
                        "at": datetime(2026, 1, 1 + number, tzinfo=UTC),
                    },
                )
        migrate.upgrade(empty_url)
        with engine.connect() as connection:
            skeletons: dict[str, str] = dict(
                connection.execute(text("SELECT name, name_skeleton FROM players")).all()
            )
    finally:
        engine.dispose()
    # The first registered keeps the plain skeleton; the later look-alike keeps its account,
    # with its id after "#" so that the column stays unique.
    assert skeletons["bob1"] == "bobl" and skeletons["bobl"].startswith("bobl#")
    assert skeletons["alice"] == name_skeleton("alice")
    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app) as client:
        assert best_entries(client) == [("al\u034fice", 8)]  # one entry: alice's best
        assert register(client, "bobI").status_code == 409
        refused = client.post("/games", json={"player": "b0bl"})
        assert refused.status_code in (201, 409)  # 0 and o: whatever TS #39 says, no 500
        assert client.post("/games", json={"player": "bob\u034f1"}).status_code == 422
        assert client.post("/games", json={"player": "BOBl"}).status_code == 409
