"""One name rule for accounts, guests and racers (api/core/names.py): a name needs a letter;
names that differ only by ``_`` and ``-`` are one name, as look-alikes are; ``computer`` and
whatever is one name with it are nobody's (``409 name_reserved``). Each case as an account's
name, a guest's game, a guest racer's (opening and joining a race) and with an account's key;
the ``per_player=best`` boards; the OpenAPI document; migration 0016_name_rule both ways with
accounts that the rule makes one name. On SQLite and PostgreSQL."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from api.app import create_app
from api.core import migrate, names
from api.core.database import Database
from api.settings import Settings
from testkit import databases
from tests.api.test_name_lookalikes import best_entries, win

# Accepted beside the account "alice" before the rule: they differ from it only by _ and -
# (or by those and look-alike letters).
SAME_AS_ALICE = ["alice_", "a-l-i-c-e", "A_L_I_C_E", "_alice", "al-ice", "a1ice-"]
# Each was an account of its own (the first three were three accounts of one empty skeleton).
NO_LETTER = ["--_", "___", "_-_", "123", "1_2-3", "0000"]
# The computer player's name, in other cases, with look-alike letters, and with _ and -.
COMPUTER = [
    "computer",
    "Computer",
    "COMPUTER",
    "C0mputer",
    "c0rnputer",
    "com-puter",
    "computer_",
    "c_o_m_p_u_t_e_r",
    "COMPUTER-",
]
# Names that are not one name: each may be registered beside the other.
DIFFERENT = [("alice", "alicia"), ("alice", "alice2"), ("ana", "anna"), ("bob", "bobby")]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def register(client: TestClient, name: str) -> Any:
    return client.post("/players", json={"name": name})


def as_racer(client: TestClient, name: str) -> list[Any]:
    """Open a race as a guest under ``name``, and join another race under it."""
    lobby = client.post("/races", json={"player": "ana-opens"})
    assert lobby.status_code == 201, lobby.text
    joined = client.post(f"/races/{lobby.json()['id']}/racers", json={"player": name})
    return [client.post("/races", json={"player": name}), joined]


def assert_problem(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    problem: dict[str, Any] = response.json()
    assert problem["code"] == code, problem
    return problem


def test_names_are_compared_under_the_rule() -> None:
    for name in [*SAME_AS_ALICE, "ALICE", "aIice", "alice"]:
        assert names.same_name(name, "alice"), name
    for name in COMPUTER:
        assert names.same_name(name, "computer"), name
    assert names.same_name("carolX", "caro1X")  # what a race refuses among its racers
    assert names.same_name("___", "--_") and names.same_name("_-_", "___")
    for one, other in DIFFERENT:
        assert not names.same_name(one, other), (one, other)


@pytest.mark.parametrize("name", SAME_AS_ALICE)
def test_a_name_that_differs_only_by_separators_is_the_accounts(
    client: TestClient, name: str
) -> None:
    key = register(client, "alice").json()["key"]
    taken = assert_problem(register(client, name), 409, "name_taken")
    assert "'alice'" in taken["detail"]
    assert client.get(f"/players/{name}").status_code == 404  # nothing was registered
    assert_problem(client.post("/games", json={"player": name}), 409, "name_taken")
    for refused in as_racer(client, name):
        assert_problem(refused, 409, "name_taken")
    # With alice's key, the game is alice's: another spelling names somebody else.
    with_key = client.post("/games", json={"player": name}, headers=bearer(key))
    assert_problem(with_key, 422, "player_name_mismatch")
    assert client.post("/games", json={"player": "alice"}, headers=bearer(key)).status_code == 201


@pytest.mark.parametrize("name", SAME_AS_ALICE)
def test_whichever_spelling_came_first_holds_the_name(client: TestClient, name: str) -> None:
    assert register(client, name).status_code == 201
    assert_problem(register(client, "alice"), 409, "name_taken")
    assert_problem(client.post("/games", json={"player": "alice"}), 409, "name_taken")


@pytest.mark.parametrize(("one", "other"), DIFFERENT)
def test_different_names_stay_different(client: TestClient, one: str, other: str) -> None:
    # Beside the names the rule makes one: the first account's one-name spelling is refused.
    assert register(client, one).status_code == 201
    assert register(client, other).status_code == 201
    assert_problem(register(client, f"{other}_"), 409, "name_taken")


@pytest.mark.parametrize("name", NO_LETTER)
def test_a_name_needs_a_letter(client: TestClient, name: str) -> None:
    refused = assert_problem(register(client, name), 422, "invalid_player_name")
    assert "letter" in refused["detail"]
    # One voice: a guest's, a racer's and a keyed game's name are refused as an account's.
    guest = assert_problem(client.post("/games", json={"player": name}), 422, "invalid_player_name")
    assert guest["detail"] == refused["detail"]
    for racer in as_racer(client, name):
        assert assert_problem(racer, 422, "invalid_player_name")["detail"] == refused["detail"]
    key = register(client, "zed").json()["key"]
    keyed = client.post("/games", json={"player": name}, headers=bearer(key))
    assert assert_problem(keyed, 422, "invalid_player_name")["detail"] == refused["detail"]
    assert client.get("/leaderboard").json()["entries"] == []


@pytest.mark.parametrize("name", COMPUTER)
def test_the_computers_name_is_nobodys(client: TestClient, name: str) -> None:
    reserved = assert_problem(register(client, name), 409, "name_reserved")
    assert "'computer'" in reserved["detail"]
    assert client.get(f"/players/{name}").status_code == 404
    guest = assert_problem(client.post("/games", json={"player": name}), 409, "name_reserved")
    assert "computer" in guest["detail"]
    for racer in as_racer(client, name):
        assert_problem(racer, 409, "name_reserved")
    key = register(client, "zed").json()["key"]
    keyed = client.post("/games", json={"player": name}, headers=bearer(key))
    assert_problem(keyed, 422, "player_name_mismatch")
    # The computer itself still races under its name.
    race = client.post("/races", json={"player": "zed-guest", "computer": True})
    assert race.status_code == 201, race.text
    assert [racer["name"] for racer in race.json()["racers"]] == ["zed-guest", "computer"]


def test_the_guests_default_is_reserved_for_accounts_only(client: TestClient) -> None:
    for name in ("anonymous", "Anonymous_", "anony-mous", "ANONYRNOUS"):
        assert_problem(register(client, name), 409, "name_reserved")
    assert client.post("/games").json()["player"] == "anonymous"
    assert client.post("/games", json={"player": "anonymous_"}).status_code == 201


def test_guests_that_differ_only_by_separators_are_one_entry_on_the_per_player_board(
    client: TestClient, database: Database
) -> None:
    start = datetime(2026, 3, 1, tzinfo=UTC)
    win(database, "alice", 5, start)
    win(database, "alice_", 9, start + timedelta(minutes=1))
    win(database, "a-l-i-c-e", 7, start + timedelta(minutes=2))
    win(database, "zed", 3, start + timedelta(minutes=3))
    assert best_entries(client) == [("alice_", 9), ("zed", 3)]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/players"),
        ("post", "/games"),
        ("post", "/races"),
        ("post", "/races/{race_id}/racers"),
    ],
)
def test_the_routes_that_take_a_name_declare_name_reserved(
    client: TestClient, method: str, path: str
) -> None:
    declared = client.get("/openapi.json").json()["paths"][path][method]["responses"]["409"]
    assert "`name_reserved`" in declared["description"]
    examples = declared["content"]["application/problem+json"]["examples"]
    assert examples["name_reserved"]["value"]["code"] == "name_reserved"


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def skeletons_of(url: str) -> dict[str, str]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, name_skeleton FROM players")).all()
    finally:
        engine.dispose()
    return {name: skeleton for name, skeleton in rows}


# Accounts registered before the rule, in this order: the first of each group keeps the plain
# skeleton under the rule.
BEFORE_THE_RULE = ["alice", "alice_", "a-l-i-c-e", "___", "--_", "computer", "bob"]


def test_the_migration_keeps_accounts_that_the_rule_makes_one_name(
    empty_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    migrate.upgrade(empty_url)
    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app):
        start = datetime(2026, 3, 1, tzinfo=UTC)
        win(app.state.database, "alice", 6, start)
        win(app.state.database, "alice_", 8, start + timedelta(minutes=1))
        win(app.state.database, "bob", 4, start + timedelta(minutes=2))
    # Back to 0015, where "alice_" was a name of its own: two entries, and accounts that
    # could be registered then.
    migrate.downgrade(empty_url, "0015_races")
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            for number, name in enumerate(BEFORE_THE_RULE):
                player_id = uuid.uuid4().hex if "sqlite" in empty_url else str(uuid.uuid4())
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, key_hash, created_at, "
                        "name_skeleton) VALUES (:id, :name, :name, :hash, :at, :skeleton)"
                    ),
                    {
                        "id": player_id,
                        "name": name,
                        "hash": "0" * 64,
                        "at": datetime(2026, 1, 1 + number, tzinfo=UTC),
                        "skeleton": f"0015-{name}",
                    },
                )
                connection.execute(
                    text(
                        "INSERT INTO player_stats (player_id, games_played, games_won, "
                        "games_lost, won_score_total, current_streak, longest_streak) "
                        "VALUES (:id, 0, 0, 0, 0, 0, 0)"
                    ),
                    {"id": player_id},
                )
    finally:
        engine.dispose()
    # The board of each player's best on the 0015 schema, read as its rows (today's app reads
    # tables that schema does not have yet).
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            bests = connection.execute(
                text(
                    "SELECT player, score FROM leaderboard_bests WHERE board = 'all' "
                    "AND with_assisted = :no ORDER BY sort_score, finished_at"
                ),
                {"no": False},
            ).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in bests] == [("alice_", 8), ("alice", 6), ("bob", 4)]

    with caplog.at_level(logging.WARNING, logger="alembic.runtime.migration"):
        migrate.upgrade(empty_url)
    skeletons = skeletons_of(empty_url)
    # Every account stays; the first of each group has the plain skeleton, each later one the
    # skeleton, "#" and its id, so that the column stays unique.
    assert set(skeletons) == set(BEFORE_THE_RULE)
    alice = names.name_skeleton("alice")
    assert skeletons["alice"] == alice and skeletons["___"] == ""
    for later, first in (("alice_", alice), ("a-l-i-c-e", alice), ("--_", "")):
        assert skeletons[later].startswith(first + "#") and len(skeletons[later]) > len(first) + 1
    assert skeletons["computer"] == names.name_skeleton("computer")
    assert skeletons["bob"] == names.name_skeleton("bob")
    logged = caplog.text
    for name in ("alice_", "a-l-i-c-e", "--_", "___", "computer"):
        assert repr(name) in logged, name
    assert "'bob'" not in logged

    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app) as client:
        assert best_entries(client) == [("alice_", 8), ("bob", 4)]
        # Each account keeps its page; no new account, and no guest, takes their names.
        for name in BEFORE_THE_RULE:
            assert client.get(f"/players/{name}").json()["name"] == name
        assert_problem(register(client, "a_lice"), 409, "name_taken")
        assert_problem(register(client, "ALICE-"), 409, "name_taken")
        assert_problem(client.post("/games", json={"player": "alice-_"}), 409, "name_taken")
        assert_problem(client.post("/games", json={"player": "a-l-i-c-e"}), 409, "name_taken")
        assert_problem(register(client, "Computer"), 409, "name_reserved")
        assert register(client, "alicia").status_code == 201

    migrate.downgrade(empty_url, "0015_races")
    skeletons = skeletons_of(empty_url)
    # 0014's skeletons: every account's its own again (alicia's too).
    assert len(set(skeletons.values())) == len(skeletons) == len(BEFORE_THE_RULE) + 1
    assert skeletons["alice_"] == "allce_" and skeletons["a-l-i-c-e"] == "a-l-l-c-e"
    assert skeletons["___"] == "___" and skeletons["--_"] == "--_"
    # The board of each player's best on the 0015 schema, read as its rows (today's app reads
    # tables that schema does not have yet).
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            bests = connection.execute(
                text(
                    "SELECT player, score FROM leaderboard_bests WHERE board = 'all' "
                    "AND with_assisted = :no ORDER BY sort_score, finished_at"
                ),
                {"no": False},
            ).all()
    finally:
        engine.dispose()
    assert [tuple(row) for row in bests] == [("alice_", 8), ("alice", 6), ("bob", 4)]
    migrate.upgrade(empty_url)
    assert skeletons_of(empty_url)["alice"] == alice
