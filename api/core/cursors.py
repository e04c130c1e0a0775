"""Signed cursors, shared by every paged listing.

A cursor is a JSON array (the position it names, and whatever the listing needs to trust
about it), base64url-encoded, a dot, and the first 16 bytes of its HMAC-SHA-256 under a secret
every process shares (:data:`SECRET_NAME`, see :func:`api.core.secrets.service_secret`).
A client can hand back
only cursors this service made. Each listing starts its array with its own fields, checks
them after :func:`open_cursor`, and so refuses another listing's cursors.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import uuid
from datetime import datetime
from typing import Any

SECRET_NAME = "cursor"  # the service secret that signs cursors (migration 0006)
_SIGNATURE_BYTES = 16


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _sign(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(secret, payload, hashlib.sha256).digest()[:_SIGNATURE_BYTES]


def seal_cursor(secret: bytes, fields: list[Any]) -> str:
    """A signed cursor holding ``fields`` (JSON values)."""
    payload = json.dumps(fields, separators=(",", ":")).encode()
    return f"{_b64(payload)}.{_b64(_sign(secret, payload))}"


def open_cursor(secret: bytes, cursor: str) -> list[Any] | None:
    """The fields of a cursor this service signed; None for anything else (the caller turns
    that into its own ``invalid_cursor`` problem and still checks every field)."""
    try:
        encoded_payload, _, encoded_signature = cursor.partition(".")
        payload, signature = _unb64(encoded_payload), _unb64(encoded_signature)
        if not hmac.compare_digest(signature, _sign(secret, payload)):
            return None
        fields = json.loads(payload)
    except (ValueError, TypeError, binascii.Error):
        return None
    return fields if isinstance(fields, list) else None


def seal_time_cursor(secret: bytes, kind: str, at: datetime, row_id: uuid.UUID) -> str:
    """A cursor of a listing ordered by a time and an id (the games in progress, the open
    races): ``[kind, at, id]``."""
    return seal_cursor(secret, [kind, at.isoformat(), row_id.hex])


def open_time_cursor(secret: bytes, cursor: str, kind: str) -> tuple[datetime, uuid.UUID] | None:
    """The time and id of a cursor :func:`seal_time_cursor` made for ``kind``; None for any
    other (another listing's, one this service did not make, a time without its zone)."""
    fields = open_cursor(secret, cursor)
    if fields is None or len(fields) != 3 or fields[0] != kind:
        return None
    try:
        at = datetime.fromisoformat(fields[1])
        row_id = uuid.UUID(hex=fields[2])
    except (ValueError, TypeError, AttributeError):
        return None
    return None if at.tzinfo is None else (at, row_id)
