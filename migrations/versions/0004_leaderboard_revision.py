"""A revision number of the leaderboard, bumped by the database whenever ``scores`` changes.

Servers cache rendered leaderboard pages and check this one number before serving one. Triggers
keep it, so every writer (the service, a bulk loader, an operator's SQL) bumps it in the same
transaction as its change to ``scores``.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BUMP = "UPDATE leaderboard_revision SET revision = revision + 1 WHERE id = 1"
_SQLITE_EVENTS = ("insert", "update", "delete")


def upgrade() -> None:
    table = op.create_table(
        "leaderboard_revision",
        sa.Column("id", sa.SmallInteger(), nullable=False),
        sa.Column("revision", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_leaderboard_revision")),
    )
    op.bulk_insert(table, [{"id": 1, "revision": 0}])
    if op.get_bind().dialect.name == "sqlite":
        # SQLite has row triggers only: one bump per row changed.
        for event in _SQLITE_EVENTS:
            op.execute(
                f"CREATE TRIGGER scores_{event}_bumps_revision AFTER {event.upper()} ON scores "
                f"BEGIN {_BUMP}; END"
            )
    else:
        # One bump per statement, however many rows it changed (a bulk load stays cheap).
        op.execute(
            "CREATE FUNCTION bump_leaderboard_revision() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN {_BUMP}; RETURN NULL; END $$"
        )
        op.execute(
            "CREATE TRIGGER scores_change_bumps_revision "
            "AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON scores "
            "FOR EACH STATEMENT EXECUTE FUNCTION bump_leaderboard_revision()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        for event in _SQLITE_EVENTS:
            op.execute(f"DROP TRIGGER scores_{event}_bumps_revision")
    else:
        op.execute("DROP TRIGGER scores_change_bumps_revision ON scores")
        op.execute("DROP FUNCTION bump_leaderboard_revision()")
    op.drop_table("leaderboard_revision")
