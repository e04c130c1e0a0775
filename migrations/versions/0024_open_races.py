"""Open public races, and the index a player's challenge streaks are counted from.

``races.public`` (not null, default false: every race opened before it stays private, joined
by its link) says that a race is listed among the open races (``GET /races/open``) while it is
in its lobby with a free seat; ``ix_races_open`` (public, status, created_at) is the range that
list reads, newest first. ``ix_games_player_challenges`` (player_id, challenge_date, status)
serves a player's daily challenge days, from which their page counts its streaks at request
time (``api.games.queries.challenge_days``) rather than keeping them in the stats row: a
player plays one challenge a day, so that read is one index range of a row a day played.

Downgrading drops both indexes and the column (every race is by link again).

Revision ID: 0024_open_races
Revises: 0023_tournaments
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024_open_races"
down_revision: str | None = "0023_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("races") as batch:
        batch.add_column(
            sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_index("ix_races_open", "races", ["public", "status", "created_at"])
    op.create_index(
        "ix_games_player_challenges", "games", ["player_id", "challenge_date", "status"]
    )


def downgrade() -> None:
    op.drop_index("ix_games_player_challenges", table_name="games")
    op.drop_index("ix_races_open", table_name="races")
    with op.batch_alter_table("races") as batch:
        batch.drop_column("public")
