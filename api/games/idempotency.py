"""Idempotent retries with the ``Idempotency-Key`` header.

A request with a key first *claims* it, in a transaction of its own: a row with the request's
fingerprint, a random claim id naming this request, and no response yet. The request's own
work then runs in a second transaction that also stores its response in that row, but only
while the row still carries its claim id: the work and the record of it commit together or
not at all, and a request whose claim was taken over stores nothing. A retry with the same key
and body gets the stored response (``Idempotent-Replayed: true``); a different body is
``422 idempotency_key_reused``; a retry while the first is still running is
``409 request_in_progress``. Responses that a retry should not repeat (5xx,
``version_conflict``) release the key instead, and a request releases only its own claim. A
claim left behind by a crashed process is taken over after :data:`STALE_CLAIM`, by an update
guarded by the stale claim id: of two retries that find it stale, exactly one takes it.

Keys are stored as their SHA-256 only. A stored game creation holds the game's token, masked
with a key stream derived from the key itself (SHAKE-256 of the key, a different function of
it than the stored hash), so the table alone never gives a token away. Creation keys must be
UUIDv4s (122 random bits, checked by the HTTP layer), so that nobody can guess another
client's key and have its game and token replayed to them.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.clock import now
from api.errors import ApiError, IdempotencyKeyReused, RequestInProgress
from api.store import repository
from api.store.database import Database

T = TypeVar("T")

STALE_CLAIM = timedelta(seconds=60)
RETENTION = timedelta(hours=24)
_UNSTORED_CODES = {"version_conflict", "database_busy", "request_in_progress"}
_SECRET_FIELD = "token"
_MASK_PREFIX = "masked:"


@dataclass(frozen=True)
class StoredResponse:
    """A response as it is sent, and as it is replayed."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    media_type: str = "application/json"


class _ClaimLost(RequestInProgress):
    """This request's claim was taken over (it ran past :data:`STALE_CLAIM`)."""


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests "the same": method, path and the validated body."""
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def key_hash(key: str) -> str:
    """What the database stores of a key."""
    return hashlib.sha256(f"foursquare-idempotency-key\0{key}".encode()).hexdigest()


def execute(
    database: Database,
    *,
    scope: str,
    key: str,
    request_fingerprint: str,
    work: Callable[[Session], T],
    render: Callable[[T], StoredResponse],
    render_error: Callable[[ApiError], StoredResponse],
) -> tuple[StoredResponse, bool]:
    """Run ``work`` in one write transaction, at most once per ``(scope, key)``; return the
    response (``render`` of its outcome, or the one stored before) and whether it is a replay.

    Runs in a worker thread (several transactions, one after the other).
    """
    hashed = key_hash(key)
    claim = secrets.token_hex(16)
    replay = _claim(database, scope, hashed, claim, request_fingerprint)
    if replay is not None:
        return unmask(replay, key), True
    try:
        with database.transaction() as session:
            response = render(work(session))
            _complete(session, scope, hashed, claim, _mask(response, key))
        return response, False
    except _ClaimLost:
        raise  # the key is another request's now: nothing to release
    except ApiError as exc:
        if exc.status >= 500 or exc.code in _UNSTORED_CODES:
            _release(database, scope, hashed, claim)
        else:
            with database.transaction() as session:
                _complete(session, scope, hashed, claim, render_error(exc))
        raise
    except BaseException:
        _release(database, scope, hashed, claim)
        raise


def _claim(
    database: Database, scope: str, hashed: str, claim: str, request_fingerprint: str
) -> StoredResponse | None:
    """Claim the key, or return the response stored under it (or raise why not)."""
    for _ in range(3):
        claimed_at = now()
        try:
            with database.transaction() as session:
                record = repository.get_idempotency_key(session, scope, hashed)
                if record is None:
                    repository.insert_idempotency_claim(
                        session, scope, hashed, claim, request_fingerprint, claimed_at
                    )
                    return None
                if record.fingerprint != request_fingerprint:
                    raise IdempotencyKeyReused(
                        "this Idempotency-Key was already used with a different request"
                    )
                if record.status_code is None:
                    stale = claimed_at - record.created_at >= STALE_CLAIM
                    if stale and repository.take_over_idempotency_claim(
                        session, scope, hashed, record.claim, claim, claimed_at
                    ):
                        return None  # the first try died with its process: take over
                    raise RequestInProgress(
                        "a request with this Idempotency-Key is still being processed"
                    )
                headers = dict(record.response_headers or {})
                return StoredResponse(
                    status=record.status_code,
                    body=(record.response_body or "").encode(),
                    headers=headers,
                    media_type=headers.get("Content-Type", "application/json"),
                )
        except IntegrityError:
            continue  # another request claimed the key between our read and insert: look again
    raise RequestInProgress("a request with this Idempotency-Key is still being processed")


def _complete(
    session: Session, scope: str, hashed: str, claim: str, response: StoredResponse
) -> None:
    headers = {**response.headers, "Content-Type": response.media_type}
    completed = repository.complete_idempotency_claim(
        session,
        scope,
        hashed,
        claim,
        response.status,
        response.body.decode(),
        headers,
        now(),
    )
    if not completed:
        raise _ClaimLost(
            "this request ran so long that a retry with its Idempotency-Key took over; "
            "that retry's answer stands"
        )


def _release(database: Database, scope: str, hashed: str, claim: str) -> None:
    with database.transaction() as session:
        repository.release_idempotency_claim(session, scope, hashed, claim)


def _keystream(key: str, length: int) -> bytes:
    return hashlib.shake_256(f"foursquare-idempotency-mask\0{key}".encode()).digest(length)


def _mask(response: StoredResponse, key: str) -> StoredResponse:
    body = json.loads(response.body)
    if not isinstance(body, dict) or not isinstance(body.get(_SECRET_FIELD), str):
        return response
    secret = body[_SECRET_FIELD].encode()
    masked = bytes(a ^ b for a, b in zip(secret, _keystream(key, len(secret)), strict=True))
    body[_SECRET_FIELD] = _MASK_PREFIX + masked.hex()
    return StoredResponse(response.status, _dumps(body), response.headers, response.media_type)


def unmask(response: StoredResponse, key: str) -> StoredResponse:
    """A stored response with its token (if any) unmasked by the key that stored it."""
    body = json.loads(response.body) if response.body else None
    value = body.get(_SECRET_FIELD) if isinstance(body, dict) else None
    if not isinstance(value, str) or not value.startswith(_MASK_PREFIX):
        return response
    masked = bytes.fromhex(value.removeprefix(_MASK_PREFIX))
    secret = bytes(a ^ b for a, b in zip(masked, _keystream(key, len(masked)), strict=True))
    assert isinstance(body, dict)
    body[_SECRET_FIELD] = secret.decode()
    return StoredResponse(response.status, _dumps(body), response.headers, response.media_type)


def _dumps(body: Any) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def purge(database: Database, older_than: timedelta = RETENTION) -> int:
    """Delete keys claimed more than ``older_than`` ago (never less than 24 hours)."""
    cutoff = now() - max(older_than, RETENTION)
    with database.transaction() as session:
        return repository.delete_idempotency_keys_before(session, cutoff)
