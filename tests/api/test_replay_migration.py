"""Migration 0020 (replays that carry a secret): up over a database that holds stored answers,
masked ones among them, and down again, on SQLite and PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import create_engine, inspect, text

from api.core import migrate
from testkit import databases

MASKED = '{"id": "x", "token": "masked:0a1b2c"}'
PLAIN = '{"game": {"id": "y"}}'


@pytest.fixture
def empty_url(backend: str, tmp_path: Path) -> Iterator[str]:
    yield from databases.empty_database(backend, tmp_path)


def rows(url: str, sql: str) -> list[tuple[object, ...]]:
    engine = create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql))]
    finally:
        engine.dispose()


def columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {column["name"] for column in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def store_answer(url: str, scope: str, body: str) -> None:
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO idempotency_keys (scope, key_hash, claim, fingerprint, "
                    "status_code, response_body, response_headers, created_at, completed_at) "
                    "VALUES (:scope, :hash, :claim, :fingerprint, 201, :body, '{}', :at, :at)"
                ),
                {
                    "scope": scope,
                    "hash": scope.ljust(64, "0")[:64],
                    "claim": "c" * 32,
                    "fingerprint": "f" * 64,
                    "body": body,
                    "at": datetime.now(UTC),
                },
            )
    finally:
        engine.dispose()


def test_up_forgets_masked_answers_makes_a_replay_secret_and_down_undoes_it(
    empty_url: str,
) -> None:
    migrate.upgrade(empty_url, "0017_computer_games")
    store_answer(empty_url, "games", MASKED)  # a creation's, its token masked by the old code
    store_answer(empty_url, "game:1", PLAIN)  # a placement's, no secret

    migrate.upgrade(empty_url, "0020_replay_secrets")
    kept = rows(empty_url, "SELECT scope, response_body, response_sealed FROM idempotency_keys")
    assert [(scope, body, bool(sealed)) for scope, body, sealed in kept] == [
        ("game:1", PLAIN, False)
    ]
    (secret,) = rows(empty_url, "SELECT value FROM service_secrets WHERE name = 'replay'")
    assert len(str(secret[0])) == 64
    assert "previous_key_hash" in columns(empty_url, "players")

    store_answer(empty_url, "players", "c2VhbGVk")  # a sealed answer, as the new code stores
    engine = create_engine(empty_url)
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE idempotency_keys SET response_sealed = :yes WHERE scope = 'players'"),
            {"yes": True},
        )
    engine.dispose()
    migrate.downgrade(empty_url, "0017_computer_games")
    # The code before would replay the ciphertext as the body: it goes with the secret.
    assert rows(empty_url, "SELECT scope FROM idempotency_keys") == [("game:1",)]
    assert rows(empty_url, "SELECT value FROM service_secrets WHERE name = 'replay'") == []
    assert "previous_key_hash" not in columns(empty_url, "players")
    assert "response_sealed" not in columns(empty_url, "idempotency_keys")
    migrate.upgrade(empty_url)
