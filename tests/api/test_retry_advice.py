"""``409 request_in_progress`` tells the truth about when to retry: a claim left behind by a
request whose process died (a claim row with no answer, as a killed replica leaves it) can be
taken over once it is ``FOURSQUARE_IDEMPOTENCY_STALE_SECONDS`` old, and ``Retry-After`` says
how long that is from now (it said ``1`` for the whole minute: a tester's client retried some
fifty times). A real ``foursquare serve`` on each database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from sqlalchemy import create_engine, insert, update

from api.games.placing import placement_fingerprint
from api.idempotency.service import key_hash
from api.idempotency.tables import idempotency_keys
from testkit.server import Server, running_server

STALE_SECONDS = 60
KEY = "left-by-a-killed-replica"


@pytest.fixture
def server(database_url: str) -> Iterator[Server]:
    with running_server(
        database_url,
        migrate_on_start=False,
        extra_env={"FOURSQUARE_IDEMPOTENCY_STALE_SECONDS": str(STALE_SECONDS)},
    ) as running:
        yield running


def _left_claim(database_url: str, game_id: str, token: str, claimed_at: datetime) -> None:
    """The row a placement's request leaves when its process is killed mid-work: claimed at
    ``claimed_at``, never answered."""
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(
                insert(idempotency_keys).values(
                    scope=f"game:{uuid.UUID(game_id).hex}",
                    key_hash=key_hash(KEY),
                    claim="k" * 32,
                    fingerprint=placement_fingerprint(0, 0, token),
                    created_at=claimed_at,
                )
            )
    finally:
        engine.dispose()


def _move_claim(database_url: str, claimed_at: datetime) -> None:
    """As if the claim had been made at ``claimed_at`` (earlier: time has passed)."""
    engine = create_engine(database_url)
    try:
        with engine.begin() as connection:
            connection.execute(update(idempotency_keys).values(created_at=claimed_at))
    finally:
        engine.dispose()


def _age(claimed_at: datetime) -> float:
    return (datetime.now(UTC) - claimed_at).total_seconds()


def test_retry_after_on_a_left_claim_is_the_time_until_it_can_be_taken_over(
    server: Server, database_url: str
) -> None:
    with httpx.Client(base_url=server.base_url, timeout=30) as http:
        created = http.post("/games", json={"player": "killed"})
        assert created.status_code == 201
        game_id, token = created.json()["id"], created.json()["token"]
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": KEY}
        path = f"/games/{game_id}/placements"

        claimed_at = datetime.now(UTC) - timedelta(seconds=15)
        _left_claim(database_url, game_id, token, claimed_at)
        waiting = http.post(path, json={"row": 0, "col": 0}, headers=headers)
        assert waiting.status_code == 409, waiting.text
        assert waiting.json()["code"] == "request_in_progress"
        remaining = STALE_SECONDS - _age(claimed_at)
        assert abs(int(waiting.headers["retry-after"]) - remaining) <= 1, (
            waiting.headers["retry-after"],
            remaining,
        )
        # The detail says the same in words, and that a live request answers sooner.
        assert f"in {waiting.headers['retry-after']} seconds" in waiting.json()["detail"]

        # Later in the claim's life, less time is left: the advice counts down.
        claimed_at -= timedelta(seconds=40)
        _move_claim(database_url, claimed_at)
        later = http.post(path, json={"row": 0, "col": 0}, headers=headers)
        assert later.status_code == 409
        remaining = STALE_SECONDS - _age(claimed_at)
        assert abs(int(later.headers["retry-after"]) - remaining) <= 1
        assert int(later.headers["retry-after"]) < int(waiting.headers["retry-after"])

        # And it is true: once that much time has passed, the retry takes the claim over.
        _move_claim(database_url, claimed_at - timedelta(seconds=int(later.headers["retry-after"])))
        taken = http.post(path, json={"row": 0, "col": 0}, headers=headers)
        assert taken.status_code == 201, taken.text
        assert "idempotent-replayed" not in taken.headers
        assert http.get(f"/games/{game_id}").json()["placements_count"] == 1
