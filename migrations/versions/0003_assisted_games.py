"""Games that asked for a hint are marked assisted; the leaderboard can leave them out.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("assisted", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    with op.batch_alter_table("scores") as batch:
        batch.add_column(
            sa.Column("assisted", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_index(
        "ix_scores_leaderboard_by_assistance",
        "scores",
        ["assisted", "sort_score", "finished_at", "game_id"],
    )


def downgrade() -> None:
    op.drop_index("ix_scores_leaderboard_by_assistance", table_name="scores")
    with op.batch_alter_table("scores") as batch:
        batch.drop_column("assisted")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("assisted")
