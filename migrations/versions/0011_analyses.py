"""Game analyses: ``analyses``, one job and then one result per finished game.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("reviewed", sa.SmallInteger(), nullable=False),
        sa.Column("total", sa.SmallInteger(), nullable=False),
        sa.Column("result", sa.Text(), nullable=True),
        sa.Column("error", sa.String(200), nullable=True),
        sa.Column("claimed_by", sa.String(100), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.SmallInteger(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_analyses_game_id_games", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name="pk_analyses"),
    )
    # The jobs a server process may claim: queued ones, and running ones whose heartbeat is old.
    op.create_index("ix_analyses_state_heartbeat_at", "analyses", ["state", "heartbeat_at"])


def downgrade() -> None:
    op.drop_index("ix_analyses_state_heartbeat_at", table_name="analyses")
    op.drop_table("analyses")
