"""Tournaments of committed deals: ``tournaments``, ``tournament_deals``,
``tournament_entrants``, ``tournament_games``, ``tournament_events`` and the operators'
``tournament_schedules`` (api/tournaments/tables.py says what each holds). New tables only;
downgrading drops them.

Revision ID: 0023_tournaments
Revises: 0022_account_keys
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023_tournaments"
down_revision: str | None = "0022_account_keys"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournament_schedules",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("cron", sa.String(length=128), nullable=False),
        sa.Column("duration", sa.Integer(), nullable=False),
        sa.Column("deals", sa.SmallInteger(), nullable=False),
        sa.Column("guests", sa.Boolean(), nullable=False),
        sa.Column("max_entrants", sa.Integer(), nullable=True),
        sa.Column("announce_ahead", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_schedules")),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("deals", sa.SmallInteger(), nullable=False),
        sa.Column("guests", sa.Boolean(), nullable=False),
        sa.Column("max_entrants", sa.Integer(), nullable=True),
        sa.Column("entrants", sa.Integer(), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.Column("schedule_id", sa.Uuid(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(
            ["schedule_id"],
            ["tournament_schedules.id"],
            name=op.f("fk_tournaments_schedule_id_tournament_schedules"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournaments")),
        sa.UniqueConstraint("schedule_id", "starts_at", name="uq_tournaments_schedule_start"),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(
            "ix_tournaments_status_starts_at", ["status", "starts_at"], unique=False
        )

    op.create_table(
        "tournament_deals",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_deals_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_deals")),
    )
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deals_played", sa.SmallInteger(), nullable=False),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_tournament_entrants_player_id_players"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_entrants_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_entrants")),
        sa.UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entrants_player"),
    )
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_entrants_player_id", ["player_id"], unique=False)
        batch_op.create_index(
            "ix_tournament_entrants_standing",
            [
                "tournament_id",
                sa.literal_column("score DESC"),
                sa.literal_column("cards DESC"),
                "finished_at",
                "number",
            ],
            unique=False,
        )
        batch_op.create_index(
            "ix_tournament_entrants_name",
            ["tournament_id", sa.literal_column("lower(name)")],
            unique=False,
        )

    op.create_table(
        "tournament_events",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournaments.id"],
            name=op.f("fk_tournament_events_tournament_id_tournaments"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_events")),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.Uuid(), nullable=False),
        sa.Column("entrant", sa.Integer(), nullable=False),
        sa.Column("deal", sa.SmallInteger(), nullable=False),
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_tournament_games_game_id_games"),
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "entrant"],
            ["tournament_entrants.tournament_id", "tournament_entrants.number"],
            name=op.f("fk_tournament_games_tournament_id_tournament_entrants"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "tournament_id", "entrant", "deal", name=op.f("pk_tournament_games")
        ),
        sa.UniqueConstraint("game_id", name=op.f("uq_tournament_games_game_id")),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_events")
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.drop_index("ix_tournament_entrants_name")
        batch_op.drop_index("ix_tournament_entrants_standing")
        batch_op.drop_index("ix_tournament_entrants_player_id")

    op.drop_table("tournament_entrants")
    op.drop_table("tournament_deals")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index("ix_tournaments_status_starts_at")

    op.drop_table("tournaments")
    op.drop_table("tournament_schedules")
