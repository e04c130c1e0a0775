"""Games, placements and scores.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _timestamp(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("seed", sa.String(length=64), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("end_reason", sa.String(length=32), nullable=True),
        sa.Column("score", sa.SmallInteger(), nullable=True),
        sa.Column("placements_count", sa.SmallInteger(), nullable=False),
        _timestamp("created_at"),
        _timestamp("updated_at"),
        _timestamp("finished_at", nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_table(
        "placements",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("row", sa.SmallInteger(), nullable=False),
        sa.Column("col", sa.SmallInteger(), nullable=False),
        sa.Column("card", sa.String(length=3), nullable=False),
        sa.Column("flipped", sa.JSON(), nullable=False),
        sa.Column("status_after", sa.String(length=16), nullable=False),
        _timestamp("created_at"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_placements_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "number", name=op.f("pk_placements")),
    )
    op.create_table(
        "scores",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("player", sa.String(length=32), nullable=False),
        sa.Column("score", sa.SmallInteger(), nullable=False),
        sa.Column("sort_score", sa.SmallInteger(), nullable=False),
        _timestamp("finished_at"),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_scores_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_scores")),
    )
    op.create_index(
        "ix_scores_leaderboard", "scores", ["sort_score", "finished_at", "game_id"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_scores_leaderboard", table_name="scores")
    op.drop_table("scores")
    op.drop_table("placements")
    op.drop_table("games")
