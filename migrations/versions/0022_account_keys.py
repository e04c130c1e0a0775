"""Several keys per account, recovery codes and passkeys: ``player_keys``,
``player_recovery_codes``, ``player_passkeys`` and ``passkey_challenges``.

Each account's one key (``players.key_hash``) moves into ``player_keys`` under the name
``first key``, with the player's id as the key's id: a key names its row
(``fsp.<key id hex>.<secret>``, api.core.secrets), and the keys given before this revision
name their player, so they keep working unchanged. The key a rotation replaced and that is
still accepted until the new one is first used (``players.previous_key_hash``, migration
0020) moves with it, as that key row's ``previous_hash``: a rotation whose answer was lost
before this revision still strands nobody after it. ``players.key_hash`` and
``players.previous_key_hash`` are dropped.

Downgrading puts back, for each account, the hash of its original key and the one it
replaced if it still has that row (the row whose id is the player's), else the hash of its
oldest key, whose text (a key made since this revision) the older code does not read: such
an account needs its original key, or is reached no more. Recovery codes, passkeys and other
keys are dropped.

Revision ID: 0022_account_keys
Revises: 0021_race_ranks
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022_account_keys"
down_revision: str | None = "0021_race_ranks"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIRST_KEY_NAME = "first key"


def _utc() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "player_keys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("previous_hash", sa.String(64), nullable=True),
        sa.Column("created_at", _utc(), nullable=False),
        sa.Column("last_used_at", _utc(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_player_keys_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_player_keys"),
    )
    op.create_index("ix_player_keys_player_id", "player_keys", ["player_id"])
    op.execute(
        sa.text(
            "INSERT INTO player_keys "
            "(id, player_id, name, key_hash, previous_hash, created_at, last_used_at) "
            "SELECT id, id, :name, key_hash, previous_key_hash, created_at, NULL FROM players"
        ).bindparams(name=FIRST_KEY_NAME)
    )
    with op.batch_alter_table("players") as batch:
        batch.drop_column("previous_key_hash")
        batch.drop_column("key_hash")

    op.create_table(
        "player_recovery_codes",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("code_hash", sa.String(64), nullable=False),
        sa.Column("created_at", _utc(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_player_recovery_codes_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "code_hash", name="pk_player_recovery_codes"),
    )
    op.create_table(
        "player_passkeys",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("created_at", _utc(), nullable=False),
        sa.Column("last_used_at", _utc(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_player_passkeys_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_player_passkeys"),
        sa.UniqueConstraint("credential_id", name="uq_player_passkeys_credential_id"),
    )
    op.create_index("ix_player_passkeys_player_id", "player_passkeys", ["player_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=True),
        sa.Column("expires_at", _utc(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_passkey_challenges_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name="pk_passkey_challenges"),
    )
    op.create_index("ix_passkey_challenges_expires_at", "passkey_challenges", ["expires_at"])


def downgrade() -> None:
    op.drop_table("passkey_challenges")
    op.drop_table("player_passkeys")
    op.drop_table("player_recovery_codes")
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("previous_key_hash", sa.String(64), nullable=True))
    # The original key if the account kept it (its id is the player's), with the one its
    # last rotation replaced if still accepted; else the oldest key (none replaced: the
    # older code accepts only keys that name the player).
    op.execute(
        sa.text(
            "UPDATE players SET "
            "key_hash = (SELECT k.key_hash FROM player_keys k WHERE k.id = players.id), "
            "previous_key_hash = (SELECT k.previous_hash FROM player_keys k "
            "WHERE k.id = players.id)"
        )
    )
    op.execute(
        sa.text(
            "UPDATE players SET key_hash = (SELECT k.key_hash FROM player_keys k "
            "WHERE k.player_id = players.id ORDER BY k.created_at, k.id LIMIT 1) "
            "WHERE key_hash IS NULL"
        )
    )
    # An account with no key left (none can be: the last key is never revoked) gets a hash
    # no key has.
    op.execute(
        sa.text("UPDATE players SET key_hash = :none WHERE key_hash IS NULL").bindparams(
            none="0" * 64
        )
    )
    with op.batch_alter_table("players") as batch:
        batch.alter_column("key_hash", existing_type=sa.String(64), nullable=False)
    op.drop_table("player_keys")
