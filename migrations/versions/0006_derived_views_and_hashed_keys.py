"""Stored public views carry their format; idempotency keys are stored hashed and claimed.

- ``games.public_format``: the format ``public_json`` was rendered in. Existing views have
  none, so they are rendered again (and stored) the first time they are read.
- ``idempotency_keys.key`` becomes ``key_hash`` (SHA-256 of the key); ``claim`` names the
  request holding the key. Stored responses of game creations were masked with a key stream
  derived from the key and its scope, both in the row; such a row is deleted rather than
  kept in a form the table alone can undo (a retry of it after the upgrade creates the game
  again, which is what a retry after 24 hours does anyway).
- ``service_secrets``: one random ``cursor`` secret shared by every process (it signs
  leaderboard cursors).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_keys = sa.table(
    "idempotency_keys",
    sa.column("scope", sa.String),
    sa.column("key", sa.String),
    sa.column("key_hash", sa.String),
    sa.column("claim", sa.String),
    sa.column("response_body", sa.Text),
)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("public_format", sa.String(32), nullable=True))

    connection = op.get_bind()
    connection.execute(
        sa.delete(_keys).where(
            _keys.c.scope == "games", _keys.c.response_body.like('%"token":"masked:%')
        )
    )
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.add_column(sa.Column("key_hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("claim", sa.String(32), nullable=True))
    for scope, key in connection.execute(sa.select(_keys.c.scope, _keys.c.key)).all():
        connection.execute(
            sa.update(_keys)
            .where(_keys.c.scope == scope, _keys.c.key == key)
            .values(key_hash=hashlib.sha256(key.encode()).hexdigest(), claim=secrets.token_hex(16))
        )
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_constraint("pk_idempotency_keys", type_="primary")
        batch.drop_column("key")
        batch.alter_column("key_hash", existing_type=sa.String(64), nullable=False)
        batch.alter_column("claim", existing_type=sa.String(32), nullable=False)
        batch.create_primary_key("pk_idempotency_keys", ["scope", "key_hash"])

    secrets_table = op.create_table(
        "service_secrets",
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("value", sa.String(128), nullable=False),
        sa.PrimaryKeyConstraint("name", name="pk_service_secrets"),
    )
    op.bulk_insert(secrets_table, [{"name": "cursor", "value": secrets.token_hex(32)}])


def downgrade() -> None:
    op.drop_table("service_secrets")
    # Hashed keys cannot be turned back into keys: the table starts empty again.
    op.execute(sa.delete(_keys))
    with op.batch_alter_table("idempotency_keys") as batch:
        batch.drop_constraint("pk_idempotency_keys", type_="primary")
        batch.drop_column("claim")
        batch.drop_column("key_hash")
        batch.add_column(sa.Column("key", sa.String(255), nullable=False))
        batch.create_primary_key("pk_idempotency_keys", ["scope", "key"])
    with op.batch_alter_table("games") as batch:
        batch.drop_column("public_format")
