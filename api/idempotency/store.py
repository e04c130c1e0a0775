"""The SQL of ``Idempotency-Key`` claims and the responses stored under them."""

from __future__ import annotations

from datetime import datetime
from typing import NamedTuple

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from api.idempotency.tables import idempotency_keys as _keys


class IdempotencyRecord(NamedTuple):
    """A claimed ``Idempotency-Key`` and, once its request is done, the response."""

    claim: str
    fingerprint: str
    status_code: int | None
    response_body: str | None
    response_headers: dict[str, str] | None
    response_sealed: bool
    created_at: datetime


def insert_idempotency_claim(
    session: Session, scope: str, key_hash: str, claim: str, fingerprint: str, now: datetime
) -> None:
    """Claim a key that nobody holds (an IntegrityError if somebody does)."""
    session.execute(
        insert(_keys).values(
            scope=scope, key_hash=key_hash, claim=claim, fingerprint=fingerprint, created_at=now
        )
    )


def get_idempotency_key(session: Session, scope: str, key_hash: str) -> IdempotencyRecord | None:
    row = session.execute(
        select(*(_keys.c[name] for name in IdempotencyRecord._fields)).where(
            _keys.c.scope == scope, _keys.c.key_hash == key_hash
        )
    ).first()
    return None if row is None else IdempotencyRecord(*row)


def take_over_idempotency_claim(
    session: Session, scope: str, key_hash: str, stale_claim: str, claim: str, now: datetime
) -> bool:
    """Replace a stale claim by ours, if it is still the one we saw and still unanswered;
    of two requests that saw the same stale claim, exactly one gets True."""
    result = session.execute(
        update(_keys)
        .where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == stale_claim,
            _keys.c.status_code.is_(None),
        )
        .values(claim=claim, created_at=now)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def complete_idempotency_claim(
    session: Session,
    scope: str,
    key_hash: str,
    claim: str,
    status: int,
    body: str,
    headers: dict[str, str],
    now: datetime,
    *,
    sealed: bool = False,
) -> bool:
    """Store the response of the request holding ``claim`` (``sealed``: its body is
    encrypted); False if it no longer holds it."""
    result = session.execute(
        update(_keys)
        .where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == claim,
            _keys.c.status_code.is_(None),
        )
        .values(
            status_code=status,
            response_body=body,
            response_headers=headers,
            response_sealed=sealed,
            completed_at=now,
        )
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def reclaim_idempotency_key(
    session: Session, scope: str, key_hash: str, claim: str, fingerprint: str, now: datetime
) -> None:
    """Make a key's row a fresh claim of ours, its stored response forgotten (one past its
    window, or that can no longer be read)."""
    session.execute(
        update(_keys)
        .where(_keys.c.scope == scope, _keys.c.key_hash == key_hash)
        .values(
            claim=claim,
            fingerprint=fingerprint,
            status_code=None,
            response_body=None,
            response_headers=None,
            response_sealed=False,
            created_at=now,
            completed_at=None,
        )
    )


def release_idempotency_claim(session: Session, scope: str, key_hash: str, claim: str) -> None:
    """Forget an unanswered claim, if it is still ``claim`` (never somebody else's)."""
    session.execute(
        delete(_keys).where(
            _keys.c.scope == scope,
            _keys.c.key_hash == key_hash,
            _keys.c.claim == claim,
            _keys.c.status_code.is_(None),
        )
    )


def delete_idempotency_keys_before(session: Session, cutoff: datetime) -> int:
    result = session.execute(delete(_keys).where(_keys.c.created_at < cutoff))
    return int(result.rowcount)  # type: ignore[attr-defined]
