"""Migration 0022 moves each account's one key into ``player_keys``, on both databases: the
keys given before it keep working unchanged (their row's id is the player's), and so does the
key a rotation replaced until the new one is first used (migration 0020's
``players.previous_key_hash``, now the key row's ``previous_hash``); the key can then be one
of several, and downgrading gives each account back its original key and the one it
replaced."""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from api.accounts import authenticate
from api.accounts.credentials import create_key
from api.accounts.errors import InvalidToken
from api.core import migrate
from api.core.database import create_database
from api.settings import Settings
from testkit import databases


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def sha256(text_: str) -> str:
    return hashlib.sha256(text_.encode()).hexdigest()


BEFORE = "0021_race_ranks"


def test_each_accounts_key_moves_into_player_keys_and_keeps_working(empty_url: str) -> None:
    migrate.upgrade(empty_url, BEFORE)
    ana, bob = uuid.uuid4(), uuid.uuid4()
    keys = {ana: f"fsp.{ana.hex}.old-secret-of-ana", bob: f"fsp.{bob.hex}.old-secret-of-bob"}
    # bob rotated, and the new key was never used: his old key still works.
    replaced = f"fsp.{bob.hex}.replaced-secret-of-bob"
    previous = {ana: None, bob: sha256(replaced)}
    engine = create_engine(empty_url)
    try:
        with engine.begin() as connection:
            for player_id, name in ((ana, "ana"), (bob, "bob")):
                connection.execute(
                    text(
                        "INSERT INTO players (id, name, name_key, name_skeleton, key_hash, "
                        "previous_key_hash, created_at) "
                        "VALUES (:id, :name, :name, :name, :hash, :previous, :at)"
                    ),
                    {
                        "id": player_id if engine.dialect.name != "sqlite" else player_id.hex,
                        "name": name,
                        "hash": sha256(keys[player_id]),
                        "previous": previous[player_id],
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
            assert authenticate(connection, replaced).name == "bob"
            with pytest.raises(InvalidToken):
                authenticate(connection, keys[ana] + "x")
            rows = connection.execute(
                text("SELECT name, key_hash, previous_hash FROM player_keys")
            ).all()
        assert sorted(rows, key=str) == sorted(
            [
                ("first key", sha256(keys[ana]), None),
                ("first key", sha256(keys[bob]), sha256(replaced)),
            ],
            key=str,
        )
        # The moved key is one of several now.
        with database.transaction() as session:
            phone = create_key(session, "ana", keys[ana], "phone").secret
        with database.reading() as connection:
            assert authenticate(connection, phone).name == "ana"
            assert authenticate(connection, keys[ana]).name == "ana"
    finally:
        database.dispose()

    # Down: each account gets its original key back (not the one made since), and the one
    # its rotation replaced while the new one is still unused.
    migrate.downgrade(empty_url, BEFORE)
    engine = create_engine(empty_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT name, key_hash, previous_key_hash FROM players")
            ).all()
            hashes = {name: (hashed, kept) for name, hashed, kept in rows}
    finally:
        engine.dispose()
    assert hashes == {
        "ana": (sha256(keys[ana]), None),
        "bob": (sha256(keys[bob]), sha256(replaced)),
    }
    migrate.upgrade(empty_url)
