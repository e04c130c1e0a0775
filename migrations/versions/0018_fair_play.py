"""The fair-play review: ``games.review``, the review queue (``fairplay_reviews``), marked
accounts (``fairplay_accounts``), moderators' decisions (``fairplay_decisions``) and the
wins held off the boards meanwhile (``leaderboard_held``).

The wins stored before this revision keep ``review`` NULL: they were put on the boards
without a review and stay there (``docs/fairplay.md`` says how an operator can queue them).
Downgrading drops the tables and the column; wins held at that moment stay off the boards.

Revision ID: 0018_fair_play
Revises: 0017_computer_games
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018_fair_play"
down_revision: str | None = "0017_computer_games"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("review", sa.String(16), nullable=True))
    op.create_table(
        "fairplay_reviews",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=True),
        sa.Column("score", sa.SmallInteger(), nullable=False),
        sa.Column("placements", sa.SmallInteger(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("challenge_date", sa.Date(), nullable=True),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=True),
        sa.Column("evidence", sa.Text(), nullable=True),
        sa.Column("decision", sa.String(16), nullable=True),
        sa.Column("claimed_by", sa.String(100), nullable=True),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("attempts", sa.SmallInteger(), nullable=False),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reviewed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_fairplay_reviews_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_fairplay_reviews")),
    )
    op.create_index(
        "ix_fairplay_reviews_state_requested_at",
        "fairplay_reviews",
        ["state", "requested_at"],
    )
    op.create_index("ix_fairplay_reviews_player_id", "fairplay_reviews", ["player_id"])
    op.create_table(
        "fairplay_accounts",
        sa.Column("player_id", sa.Uuid(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("flagged", sa.SmallInteger(), nullable=False),
        sa.Column("marked_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_fairplay_accounts_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_fairplay_accounts")),
    )
    op.create_table(
        "fairplay_decisions",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("subject", sa.String(48), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("moderator", sa.String(32), nullable=False),
        sa.Column("note", sa.String(500), nullable=True),
        sa.Column("decided_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_fairplay_decisions")),
    )
    op.create_index(
        "ix_fairplay_decisions_subject", "fairplay_decisions", ["subject", "decided_at"]
    )
    op.create_table(
        "leaderboard_held",
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("week", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_leaderboard_held_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_leaderboard_held")),
    )
    op.create_index("ix_leaderboard_held_day", "leaderboard_held", ["day"])
    op.create_index("ix_leaderboard_held_week", "leaderboard_held", ["week"])


def downgrade() -> None:
    op.drop_table("leaderboard_held")
    op.drop_table("fairplay_decisions")
    op.drop_table("fairplay_accounts")
    op.drop_table("fairplay_reviews")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("review")
