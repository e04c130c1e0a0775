"""Races: ``races``, ``race_racers`` and ``race_events``, and ``games.sealed`` (a race's game
is its player's only until the race ends).

Revision ID: 0015_races
Revises: 0014_case_insensitive_skeletons
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015_races"
down_revision: str | None = "0014_case_insensitive_skeletons"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("sealed", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
    op.create_table(
        "races",
        sa.Column("id", sa.Uuid(), nullable=False),
        sa.Column("seats", sa.SmallInteger(), nullable=False),
        sa.Column("time_limit", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("deck_commitment", sa.String(64), nullable=False),
        sa.Column("events", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("computer_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("next_race_id", sa.Uuid(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_races"),
    )
    # The races a server process's ticker looks after: those not finished.
    op.create_index("ix_races_status", "races", ["status"])
    op.create_table(
        "race_racers",
        sa.Column("race_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.SmallInteger(), nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Uuid(), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("computer", sa.Boolean(), nullable=False),
        sa.Column("game_id", sa.Uuid(), nullable=True),
        sa.Column("rank", sa.SmallInteger(), nullable=True),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name="fk_race_racers_race_id_races", ondelete="CASCADE"
        ),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name="fk_race_racers_player_id_players",
            ondelete="RESTRICT",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name="fk_race_racers_game_id_games", ondelete="RESTRICT"
        ),
        sa.PrimaryKeyConstraint("race_id", "number", name="pk_race_racers"),
    )
    # A placement's race (the races' listener), and a player's races.
    op.create_index("ix_race_racers_game_id", "race_racers", ["game_id"])
    op.create_index("ix_race_racers_player_id", "race_racers", ["player_id"])
    op.create_table(
        "race_events",
        sa.Column("race_id", sa.Uuid(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(
            ["race_id"], ["races.id"], name="fk_race_events_race_id_races", ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("race_id", "number", name="pk_race_events"),
    )


def downgrade() -> None:
    op.drop_table("race_events")
    op.drop_index("ix_race_racers_player_id", table_name="race_racers")
    op.drop_index("ix_race_racers_game_id", table_name="race_racers")
    op.drop_table("race_racers")
    op.drop_index("ix_races_status", table_name="races")
    op.drop_table("races")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("sealed")
