"""Migration 0019 moves each account's one key into ``player_keys``, on both databases: the
keys given before it keep working unchanged (their row's id is the player's), the key can then
be one of several, and downgrading gives each account back its original key."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from api.core import migrate
from api.core.accounts import authenticate
from api.core.database import create_database
from api.core.errors import InvalidToken
from api.core.settings import Settings
from api.players.credentials import create_key
from testkit import databases


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def sha256(text_: str) -> str:
    return hashlib.sha256(text_.encode()).hexdigest()


def test_each_accounts_key_moves_into_player_keys_and_keeps_working(empty_url: str) -> None:
    migrate.upgrade(empty_url, "0017_computer_games")
    ana, bob = uuid.uuid4(), uuid.uuid4()
    keys = {ana: f"fsp.{ana.hex}.old-secret-of-ana", bob: f"fsp.{bob.hex}.old-secret-of-bob"}
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            for player_id, name in ((ana, "ana"), (bob, "bob")):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, name_skeleton, key_hash, "
                        "created_at) VALUES (:id, :name, :name, :name, :hash, :at)"
                    ),
                    {
                        "id": player_id if engine.dialect.name != "sqlite" else player_id.hex,
                        "name": name,
                        "hash": sha256(keys[player_id]),
                        "at": datetime(2026, 12, 1, tzinfo=UTC),
                    },
                )
    finally:
        engine.dispose()

    migrate.upgrade(empty_url)
    database = create_database(Settings(database_url=empty_url, migrate_on_start=False))
    try:
        with database.reading() as connection:
            assert authenticate(connection, keys[ana]).name == "ana"
            assert authenticate(connection, keys[bob]).name == "bob"
            with pytest.raises(InvalidToken):
                authenticate(connection, keys[ana] + "x")
            rows = connection.execute(
                text("SELECT name, key_hash FROM player_keys ORDER BY name, key_hash")
            ).all()
        assert sorted(rows) == sorted(
            [("first key", sha256(keys[ana])), ("first key", sha256(keys[bob]))]
        )
        # The moved key is one of several now.
        with database.transaction() as session:
            phone = create_key(session, "ana", keys[ana], "phone").secret
        with database.reading() as connection:
            assert authenticate(connection, phone).name == "ana"
            assert authenticate(connection, keys[ana]).name == "ana"
    finally:
        database.dispose()

    # Down: each account gets its original key back (not the one made since).
    migrate.downgrade(empty_url, "0017_computer_games")
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(text("SELECT name, key_hash FROM players")).all()
            hashes = {name: hashed for name, hashed in rows}
    finally:
        engine.dispose()
    assert hashes == {"ana": sha256(keys[ana]), "bob": sha256(keys[bob])}
    migrate.upgrade(empty_url)
