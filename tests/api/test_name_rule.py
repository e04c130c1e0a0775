"""One rule for every name a person sees (api/core/names.py): a guest's name follows the
accounts' rule, 3 to 24 ASCII letters, digits, ``_`` or ``-``, and the skeleton that makes
look-alikes one name is case-insensitive. The probe's names, and last round's look-alikes of
``alice``, are refused as a guest's and as an account's; guests ``ALICE`` and ``alice`` are one
entry on the per-player board; migration 0014 gives stored names the new skeletons; the web
client's name fields and docs/api.md say the same rule. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from api.app import create_app
from api.core import migrate
from api.core.database import Database
from api.core.names import NAME_MAX_LENGTH, NAME_MIN_LENGTH, NAME_PATTERN, is_name, name_skeleton
from api.settings import Settings
from testkit import databases
from tests.api.test_name_lookalikes import LOOKALIKES_OF_ALICE, best_entries, win

ROOT = Path(__file__).resolve().parents[2]

# Accepted beside the account "alice" before the rule (the probe of issue 31).
PROBE = [
    "a\u04cfice",  # Cyrillic palochka: ICU's skeleton "aiice", drawn as "alice" by Chromium
    "al\u0130ce",  # capital I with a dot above
    "a\u026bice",  # l with a middle tilde
    "a\u026cice",  # l with a belt
    "a\u0142ice",  # l with a stroke
    "al\U0001d159ice",  # musical symbol null notehead: prints nothing
]
# Names of Hangul fillers alone, while a name of spaces alone was refused.
INVISIBLE_ONLY = ["\uffa0", "\u3164\u3164", "\u3164\u3164\u3164", "\u115f\u1160\u3164"]


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


@pytest.mark.parametrize("name", PROBE + INVISIBLE_ONLY + LOOKALIKES_OF_ALICE)
def test_no_lookalike_is_taken_as_a_guest_or_an_account(client: TestClient, name: str) -> None:
    key = client.post("/players", json={"name": "alice"}).json()["key"]
    as_guest = client.post("/games", json={"player": name})
    assert as_guest.status_code in (409, 422), as_guest.text
    assert as_guest.json()["code"] in ("name_taken", "invalid_player_name")
    as_account = client.post("/players", json={"name": name})
    assert as_account.status_code in (409, 422), as_account.text
    assert as_account.json()["code"] in ("name_taken", "invalid_player_name")
    # With alice's key, only alice's name (in any case) names the game's player: the game is
    # then alice's, under her name.
    with_key = client.post("/games", json={"player": name}, headers=bearer(key))
    if name.lower() == "alice":
        assert with_key.status_code == 201 and with_key.json()["player"] == "alice"
    else:
        assert with_key.status_code == 422, with_key.text
    board = client.get("/leaderboard", params={"per_player": "best"}).json()["entries"]
    assert all(entry["player"] != name for entry in board)


@pytest.mark.parametrize("name", PROBE + INVISIBLE_ONLY)
def test_a_name_outside_the_rule_is_refused_without_any_account(
    client: TestClient, name: str
) -> None:
    refused = client.post("/games", json={"player": name})
    assert refused.status_code == 422, refused.text
    assert refused.json()["code"] == "invalid_player_name"


def test_the_skeleton_is_case_insensitive() -> None:
    assert name_skeleton("ALICE") == name_skeleton("alice") == name_skeleton("aLiCe")
    for name in ("alice", "bob1", "rnario", "Zed_9", "o0O-lI1"):
        for variant in (name.upper(), name.lower(), name.swapcase(), name.title()):
            assert name_skeleton(variant) == name_skeleton(name), variant
    # Case-insensitive and still TS #39's: a capital I looks like l, so every case of i does.
    assert name_skeleton("aiice") == name_skeleton("aIice") == name_skeleton("alice")
    assert name_skeleton("mlice") == name_skeleton("rnlice") != name_skeleton("alice")
    assert name_skeleton("bob") != name_skeleton("bab")


def test_guests_in_two_cases_are_one_entry_on_the_per_player_board(
    client: TestClient, database: Database
) -> None:
    for name in ("alice", "ALICE", "Alice"):
        assert client.post("/games", json={"player": name}).status_code == 201
    start = datetime(2026, 3, 1, tzinfo=UTC)
    win(database, "alice", 5, start)
    win(database, "ALICE", 9, start + timedelta(minutes=1))
    win(database, "AIice", 7, start + timedelta(minutes=2))
    win(database, "zed", 3, start + timedelta(minutes=3))
    assert best_entries(client) == [("ALICE", 9), ("zed", 3)]
    # And an account can take none of them now.
    assert client.post("/players", json={"name": "Alice"}).status_code == 201
    assert client.post("/players", json={"name": "ALlCE"}).status_code == 409
    assert client.post("/games", json={"player": "aLICE"}).status_code == 409


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def test_the_migration_makes_stored_skeletons_case_insensitive(empty_url: str) -> None:
    migrate.upgrade(empty_url)
    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app):
        start = datetime(2026, 3, 1, tzinfo=UTC)
        win(app.state.database, "alice", 6, start)
        win(app.state.database, "ALICE", 8, start + timedelta(minutes=1))
    # Back to 0013, where ALICE's skeleton was "allce" and alice's "alice": two entries, and
    # two accounts whose names differ by i and l.
    migrate.downgrade(empty_url, "0013_name_skeletons")
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            keys = connection.execute(text("SELECT player_key FROM leaderboard_bests")).scalars()
            assert len(set(keys)) == 2
            for number, name in enumerate(["alice", "aiice"]):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, key_hash, created_at, "
                        "name_skeleton) VALUES (:id, :name, :name, :hash, :at, :name)"
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
    assert skeletons["alice"] == name_skeleton("alice")
    assert skeletons["aiice"].startswith(name_skeleton("aiice") + "#")
    app = create_app(Settings(database_url=empty_url, migrate_on_start=False))
    with TestClient(app) as client:
        assert best_entries(client) == [("ALICE", 8)]
        assert client.post("/games", json={"player": "ALICE"}).status_code == 409


def test_the_web_client_and_the_docs_say_the_same_rule(client: TestClient) -> None:
    # The web client keeps no copy of the rule: its name fields take it, as they load, from
    # the API's OpenAPI document (web/static/js/names.js), which is the server's own pattern.
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    fields = [
        schemas["GameCreate"]["properties"]["player"],
        schemas["PlayerCreate"]["properties"]["name"],
        *(schemas[name]["properties"]["player"]["anyOf"][0] for name in ("RaceCreate", "RacerIn")),
    ]
    for field in fields:
        assert field["pattern"] == NAME_PATTERN
        assert (field["minLength"], field["maxLength"]) == (NAME_MIN_LENGTH, NAME_MAX_LENGTH)
    # The pattern as the web client runs it (a JavaScript RegExp, the same syntax here) is the
    # whole rule with those lengths: a letter is needed, _ and - alone are no name.
    rule = re.compile(NAME_PATTERN)
    for name in ("ana", "a-1", "_x_", "9lives", "A_L_I_C_E"):
        assert rule.search(name) and is_name(name), name
    for name in ("___", "--_", "_-_", "123", "1_2-3", "a b", "an\u00e4"):
        assert not rule.search(name) and not is_name(name), name
    scripts = (ROOT / "web/static/js").glob("*.js")
    copies = [path.name for path in scripts if "A-Za-z0-9" in path.read_text()]
    assert copies == [], "a second copy of the name rule in the web client"
    page = (ROOT / "web/static/index.html").read_text()
    for field in ("player-name", "register-name", "home-name"):
        tag = re.search(rf'<input id="{field}"[^>]*>', page, re.S)
        assert tag and "pattern=" not in tag.group(0), field
    names = (ROOT / "web/static/js/names.js").read_text()
    assert "GameCreate?.properties?.player" in names
    assert NAME_PATTERN in (ROOT / "docs/api.md").read_text()
