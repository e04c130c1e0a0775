"""An index on ``games (status, updated_at)``: ``foursquare expire`` finds the games in
progress untouched since a cutoff with one range scan instead of reading the whole table.

``updated_at`` already exists (every change to a game sets it), so no column is added.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_games_status_updated_at", "games", ["status", "updated_at"])


def downgrade() -> None:
    op.drop_index("ix_games_status_updated_at", table_name="games")
