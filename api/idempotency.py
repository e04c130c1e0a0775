"""Idempotent retries with the ``Idempotency-Key`` header.

A request with a key first *claims* it, in a transaction of its own: a row with the request's
fingerprint and no response yet. The request's own work then runs in a second transaction that
also stores its response in that row, so the work and the record of it commit together or not
at all. A retry with the same key and body gets the stored response (with
``Idempotent-Replayed: true``); a different body is ``422 idempotency_key_reused``; a retry while
the first is still running is ``409 request_in_progress``. Responses that a retry should not
repeat (5xx, ``version_conflict``) release the key instead. A claim left behind by a crashed
process is taken over after :data:`STALE_CLAIM`.

A stored game creation holds the game's token; it is kept masked with a key stream derived
from the idempotency key, so the table alone never gives a token away.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from fastapi import Response
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api import repository
from api.db import Database
from api.errors import (
    PROBLEM_MEDIA_TYPE,
    ApiError,
    IdempotencyKeyReused,
    RequestInProgress,
    api_error_response,
)
from api.models import IdempotencyKeyRow

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

    def to_response(self, *, replayed: bool = False) -> Response:
        headers = dict(self.headers)
        if replayed:
            headers["Idempotent-Replayed"] = "true"
        return Response(self.body, self.status, headers=headers, media_type=self.media_type)

    @classmethod
    def of_error(cls, exc: ApiError, instance: str) -> StoredResponse:
        rendered = api_error_response(exc, instance)
        return cls(exc.status, bytes(rendered.body), dict(exc.headers), PROBLEM_MEDIA_TYPE)


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests "the same": method, path and the validated body."""
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def execute(
    database: Database,
    *,
    scope: str,
    key: str | None,
    request_fingerprint: str,
    instance: str,
    work: Callable[[Session], T],
    render: Callable[[T], StoredResponse],
) -> Response:
    """Run ``work`` in one write transaction, at most once per ``(scope, key)``, and answer
    with ``render`` of its outcome.

    Without a key the answer is rendered after the commit, so the transaction (on SQLite, the
    write lock) is held no longer than the writes take; with a key it is rendered inside, to be
    stored with them.
    """
    if key is None:
        with database.transaction(write=True) as session:
            outcome = work(session)
        return render(outcome).to_response()
    replay = _claim(database, scope, key, request_fingerprint)
    if replay is not None:
        return _unmask(replay, scope, key).to_response(replayed=True)
    try:
        with database.transaction(write=True) as session:
            response = render(work(session))
            _complete(session, scope, key, _mask(response, scope, key))
        return response.to_response()
    except ApiError as exc:
        if exc.status >= 500 or exc.code in _UNSTORED_CODES:
            _release(database, scope, key)
        else:
            with database.transaction(write=True) as session:
                _complete(session, scope, key, StoredResponse.of_error(exc, instance))
        raise
    except BaseException:
        _release(database, scope, key)
        raise


def _claim(
    database: Database, scope: str, key: str, request_fingerprint: str
) -> StoredResponse | None:
    """Claim the key, or return the response stored under it (or raise why not)."""
    for _ in range(3):
        now = datetime.now(UTC)
        try:
            with database.transaction(write=True) as session:
                row = repository.get_idempotency_key(session, scope, key)
                if row is None:
                    repository.add(
                        session,
                        IdempotencyKeyRow(
                            scope=scope,
                            key=key,
                            fingerprint=request_fingerprint,
                            status_code=None,
                            response_body=None,
                            response_headers=None,
                            created_at=now,
                            completed_at=None,
                        ),
                    )
                    return None
                if row.fingerprint != request_fingerprint:
                    raise IdempotencyKeyReused(
                        "this Idempotency-Key was already used with a different request"
                    )
                if row.status_code is None:
                    if now - row.created_at < STALE_CLAIM:
                        raise RequestInProgress(
                            "a request with this Idempotency-Key is still being processed"
                        )
                    row.created_at = now  # the first try died with its process: take over
                    return None
                return StoredResponse(
                    status=row.status_code,
                    body=(row.response_body or "").encode(),
                    headers=dict(row.response_headers or {}),
                    media_type=(row.response_headers or {}).get("Content-Type", "application/json"),
                )
        except IntegrityError:
            continue  # another request claimed the key between our read and insert: look again
    raise RequestInProgress("a request with this Idempotency-Key is still being processed")


def _complete(session: Session, scope: str, key: str, response: StoredResponse) -> None:
    headers = {**response.headers, "Content-Type": response.media_type}
    repository.complete_idempotency_key(
        session, scope, key, response.status, response.body.decode(), headers, datetime.now(UTC)
    )


def _release(database: Database, scope: str, key: str) -> None:
    with database.transaction(write=True) as session:
        repository.delete_idempotency_key(session, scope, key)


def _keystream(scope: str, key: str, length: int) -> bytes:
    return hashlib.shake_256(f"foursquare-idempotency\0{scope}\0{key}".encode()).digest(length)


def _mask(response: StoredResponse, scope: str, key: str) -> StoredResponse:
    body = json.loads(response.body)
    if not isinstance(body, dict) or not isinstance(body.get(_SECRET_FIELD), str):
        return response
    secret = body[_SECRET_FIELD].encode()
    masked = bytes(a ^ b for a, b in zip(secret, _keystream(scope, key, len(secret)), strict=True))
    body[_SECRET_FIELD] = _MASK_PREFIX + masked.hex()
    return StoredResponse(response.status, _dumps(body), response.headers, response.media_type)


def _unmask(response: StoredResponse, scope: str, key: str) -> StoredResponse:
    body = json.loads(response.body) if response.body else None
    value = body.get(_SECRET_FIELD) if isinstance(body, dict) else None
    if not isinstance(value, str) or not value.startswith(_MASK_PREFIX):
        return response
    masked = bytes.fromhex(value.removeprefix(_MASK_PREFIX))
    secret = bytes(a ^ b for a, b in zip(masked, _keystream(scope, key, len(masked)), strict=True))
    assert isinstance(body, dict)
    body[_SECRET_FIELD] = secret.decode()
    return StoredResponse(response.status, _dumps(body), response.headers, response.media_type)


def _dumps(body: Any) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()


def purge(database: Database, older_than: timedelta = RETENTION) -> int:
    """Delete keys claimed more than ``older_than`` ago (never less than 24 hours)."""
    cutoff = datetime.now(UTC) - max(older_than, RETENTION)
    with database.transaction(write=True) as session:
        return repository.delete_idempotency_keys_before(session, cutoff)
