"""Deck commitments and idempotency keys.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29

Games created before this revision get a salt and a commitment computed from their stored deck
at migration time (the best that can be done after the fact).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("salt", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("deck_commitment", sa.String(length=64), nullable=True))

    games = sa.table(
        "games",
        sa.column("id", sa.Uuid()),
        sa.column("state", sa.Text()),
        sa.column("salt", sa.String()),
        sa.column("deck_commitment", sa.String()),
    )
    connection = op.get_bind()
    for game_id, state in connection.execute(sa.select(games.c.id, games.c.state)).all():
        salt = secrets.token_hex(16)
        deck = json.loads(state)["deck"]
        commitment = hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()
        connection.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(salt=salt, deck_commitment=commitment)
        )

    with op.batch_alter_table("games") as batch:
        batch.alter_column("salt", existing_type=sa.String(length=64), nullable=False)
        batch.alter_column("deck_commitment", existing_type=sa.String(length=64), nullable=False)

    op.create_table(
        "idempotency_keys",
        sa.Column("scope", sa.String(length=48), nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.SmallInteger(), nullable=True),
        sa.Column("response_body", sa.Text(), nullable=True),
        sa.Column("response_headers", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("completed_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("scope", "key", name=op.f("pk_idempotency_keys")),
    )
    op.create_index("ix_idempotency_keys_created_at", "idempotency_keys", ["created_at"])


def downgrade() -> None:
    op.drop_index("ix_idempotency_keys_created_at", table_name="idempotency_keys")
    op.drop_table("idempotency_keys")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deck_commitment")
        batch.drop_column("salt")
