"""The idempotency keys' table. Only :mod:`api.idempotency.store` names it in SQL."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, Index, SmallInteger, String, Table, Text, false

from api.core.models import UTCDateTime, metadata

# A request made with an ``Idempotency-Key``: claimed while it runs, then its response.
#
# ``scope`` is ``"games"`` for game creation and ``"game:<id>"`` for placements on a game.
# ``key_hash`` is the SHA-256 of the key (the key itself is never stored). ``claim`` names the
# request that holds the key while it runs: only that request may complete or release it, and
# a stale claim is taken over by replacing it. ``status_code`` is NULL while the claiming
# request is still running. ``response_sealed``: the body is an answer that carries a secret,
# stored encrypted (api/idempotency/sealing.py), not JSON.
idempotency_keys = Table(
    "idempotency_keys",
    metadata,
    Column("scope", String(48), primary_key=True),
    Column("key_hash", String(64), primary_key=True),
    Column("claim", String(32), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("status_code", SmallInteger),
    Column("response_body", Text),
    Column("response_headers", JSON),
    Column("response_sealed", Boolean, nullable=False, server_default=false()),
    Column("created_at", UTCDateTime, nullable=False),
    Column("completed_at", UTCDateTime),
    Index("ix_idempotency_keys_created_at", "created_at"),
)
