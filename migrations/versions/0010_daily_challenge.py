"""The daily challenge: ``games.challenge_date`` and its one-attempt-per-player constraint,
and the random ``challenge`` secret the day's deal is derived from.

- ``games.challenge_date``: the UTC day whose challenge the game is; NULL for every other
  game (all existing games stay ordinary games).
- ``uq_games_challenge_date`` on ``(challenge_date, player_id)``: one challenge game per
  player per day, enforced by the database, so two concurrent requests cannot both start
  one. NULLs are distinct in a unique constraint (SQLite and PostgreSQL alike), so ordinary
  games never meet it. Its index also serves the day's counts and board (a range scan of
  one day's games).
- ``service_secrets`` row ``challenge``: 256 random bits, used when
  ``FOURSQUARE_CHALLENGE_SECRET`` is unset, so every process on one database deals the same
  challenge without configuration (like migration 0006's ``cursor``).

Downgrading keeps every game, challenge games included (they become ordinary games, whose
finished ones then show their deck at once), and forgets the secret.

Revision ID: 0010
Revises: 0008
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_secrets = sa.table("service_secrets", sa.column("name", sa.String), sa.column("value", sa.String))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("challenge_date", sa.Date(), nullable=True))
        batch.create_unique_constraint("uq_games_challenge_date", ["challenge_date", "player_id"])
    op.execute(sa.insert(_secrets).values(name="challenge", value=secrets.token_hex(32)))


def downgrade() -> None:
    op.execute(sa.delete(_secrets).where(_secrets.c.name == "challenge"))
    with op.batch_alter_table("games") as batch:
        batch.drop_constraint("uq_games_challenge_date", type_="unique")
        batch.drop_column("challenge_date")
