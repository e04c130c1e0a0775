"""A race's last activity, from which an idle lobby is closed.

``races.active_at`` (not null) is the time of the race's last rare event (its opening's join, a
join, a leave, ...): the races' ticker closes a lobby idle for ``FOURSQUARE_RACE_LOBBY_MINUTES``.
Nothing kept says when an older race's events were written, so each race's ``active_at`` starts
as its ``created_at``: a lobby opened long before this migration is closed at the ticker's next
pass, as a lobby opened then and left idle would have been. No index: the ticker reads the
lobbies by ``ix_races_status`` and checks ``active_at`` on those rows only.

Downgrading drops the column.

Revision ID: 0025_lobby_activity
Revises: 0024_open_races
Create Date: 2026-12-05
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025_lobby_activity"
down_revision: str | None = "0024_open_races"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_races = sa.table(
    "races",
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("active_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    # Added nullable, filled, then made not null: a server default would stay in the schema
    # (the model has none: every race is inserted with its own).
    with op.batch_alter_table("races") as batch:
        batch.add_column(sa.Column("active_at", sa.DateTime(timezone=True), nullable=True))
    op.execute(sa.update(_races).values(active_at=_races.c.created_at))
    with op.batch_alter_table("races") as batch:
        batch.alter_column("active_at", existing_type=sa.DateTime(timezone=True), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("races") as batch:
        batch.drop_column("active_at")
