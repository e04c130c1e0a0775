"""Player accounts: ``players``, their ``player_stats``, and ``games.player_id``.

Existing games and scores are kept: they are guests' games (``player_id`` NULL).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("name_key", sa.String(24), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_players"),
        sa.UniqueConstraint("name_key", name="uq_players_name_key"),
    )
    op.create_table(
        "player_stats",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("games_played", sa.Integer(), nullable=False),
        sa.Column("games_won", sa.Integer(), nullable=False),
        sa.Column("games_lost", sa.Integer(), nullable=False),
        sa.Column("won_score_total", sa.Integer(), nullable=False),
        sa.Column("best_score", sa.SmallInteger(), nullable=True),
        sa.Column("current_streak", sa.Integer(), nullable=False),
        sa.Column("longest_streak", sa.Integer(), nullable=False),
        sa.Column("last_played_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_player_stats_player_id_players",
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name="pk_player_stats"),
    )
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("player_id", sa.Uuid(), nullable=True))
        batch.create_foreign_key(
            "fk_games_player_id_players", "players", ["player_id"], ["id"], ondelete="RESTRICT"
        )
        batch.create_index("ix_games_player_games", ["player_id", "created_at", "id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_player_games")
        batch.drop_constraint("fk_games_player_id_players", type_="foreignkey")
        batch.drop_column("player_id")
    op.drop_table("player_stats")
    op.drop_table("players")
