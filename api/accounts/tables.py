"""The accounts' tables: players, their keys, recovery codes and passkeys, and the passkey
ceremonies' challenges. Only :mod:`api.accounts.store` names them in SQL."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Index, String, Table, Text, Uuid

from api.core.models import UTCDateTime, metadata

# A registered player. ``name`` is the name as registered (after NFKC normalisation);
# ``name_key`` its caseless form (api.core.names.name_key), unique, so that no two accounts and
# no guest can use names that differ only in case or width; ``name_skeleton`` its look-alike
# form (api.core.names.name_skeleton, Unicode TS #39), unique, so that no two accounts and no
# guest can use names that look alike. Its keys are ``player_keys`` rows (migration 0022
# moved the one key an account had into them).
players = Table(
    "players",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(24), nullable=False, unique=True),
    Column("name_skeleton", String(128), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Index("ix_players_name_skeleton", "name_skeleton", unique=True),
)

# One of a player's named keys (one a device), stored only as its SHA-256, like a game's
# token. A key names its row (``fsp.<id hex>.<secret>``, api.core.secrets), so a request finds
# the row by its primary key and compares the hash in constant time; no lookup is ever made by
# a secret. The key an account had before migration 0022 kept its text: its row's id is the
# player's id. ``last_used_at`` is written at most once an hour (a write per request would
# double the statements of every authenticated one).
#
# ``previous_hash`` is the secret a rotation of this key replaced, still accepted until the
# new secret is first used (then NULL), so that a rotation whose answer was lost strands
# nobody (migration 0020 kept it on ``players`` while an account had one key).
player_keys = Table(
    "player_keys",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column(
        "player_id",
        Uuid,
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("name", String(64), nullable=False),
    Column("key_hash", String(64), nullable=False),
    Column("previous_hash", String(64)),
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_used_at", UTCDateTime),
)

# A player's unspent one-time recovery codes, each stored only as its SHA-256 (the codes are
# random: a fast hash is enough, as for keys). Spending one deletes its row.
player_recovery_codes = Table(
    "player_recovery_codes",
    metadata,
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("code_hash", String(64), primary_key=True),
    Column("created_at", UTCDateTime, nullable=False),
)

# A player's passkey (a WebAuthn credential): its id (public, what the browser names it by),
# its public key (COSE) and signature counter. Nothing here is secret.
player_passkeys = Table(
    "player_passkeys",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column(
        "player_id",
        Uuid,
        ForeignKey("players.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("credential_id", String(1400), nullable=False, unique=True),  # base64url
    Column("public_key", Text, nullable=False),  # base64url of the COSE key
    Column("sign_count", BigInteger, nullable=False),
    Column("name", String(64), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("last_used_at", UTCDateTime),
)

# A WebAuthn ceremony's challenge, kept server-side until it is answered (deleted then,
# whatever the outcome) or expires: for a registration, the player it is for.
passkey_challenges = Table(
    "passkey_challenges",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("challenge", String(128), nullable=False),  # base64url
    Column("purpose", String(16), nullable=False),  # "register" or "sign_in"
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE")),
    Column("expires_at", UTCDateTime, nullable=False, index=True),
)
