"""Leaderboard windows and standing: day and week boards, each player's best, and ranks that
cost the same at any size.

- ``scores`` gains ``player_key`` (the player's name as names are compared), ``day`` and
  ``week`` (the UTC day and the Monday of the ISO week of ``finished_at``), the ordinals of
  the game among the won games of its score (all, and those without hints), overall and
  within its day, and the indexes of the day and week boards.
- ``leaderboard_totals``: won games by score, one row per score 0..24; ``leaderboard_days``:
  won games by day and score. A rank is a sum of these plus an ordinal.
- ``leaderboard_bests``: each player's best game on every board.

Existing won games are numbered in leaderboard order (finish time, then id) and counted, here
in Python: this is the state the service keeps from now on, written out plainly once. The
same numbering in SQL, for bulk loads, is :func:`api.leaderboards.recount.rebuild_leaderboard`.

Downgrading drops all of it; no game or score is lost either way.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-01
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

MAX_SCORE = 24  # 40 cards, at least 16 of them placed to win
ALL_TIME = date(2000, 1, 1)  # leaderboard_bests.starts_on of the all-time board
_BATCH = 5_000
_NUMBERED = (
    "player_key",
    "day",
    "week",
    "ordinal",
    "ordinal_unassisted",
    "day_ordinal",
    "day_ordinal_unassisted",
)

_scores = sa.table(
    "scores",
    sa.column("game_id", sa.Uuid()),
    sa.column("player", sa.String()),
    sa.column("score", sa.SmallInteger()),
    sa.column("sort_score", sa.SmallInteger()),
    sa.column("finished_at", sa.DateTime(timezone=True)),
    sa.column("assisted", sa.Boolean()),
    sa.column("player_key", sa.String()),
    sa.column("day", sa.Date()),
    sa.column("week", sa.Date()),
    sa.column("ordinal", sa.BigInteger()),
    sa.column("ordinal_unassisted", sa.BigInteger()),
    sa.column("day_ordinal", sa.Integer()),
    sa.column("day_ordinal_unassisted", sa.Integer()),
)


def _name_key(name: str) -> str:
    """api.core.names.name_key as of this revision (NFKC, case-folded, NFKC, without
    format characters), frozen here as migrations must be."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def _utc_day(moment: datetime) -> date:
    # SQLite gives the stored UTC text back without a zone.
    return (moment if moment.tzinfo is None else moment.astimezone(UTC)).date()


def upgrade() -> None:
    new_columns: list[sa.Column[object]] = [
        sa.Column("player_key", sa.String(128), nullable=False, server_default=""),
        sa.Column("day", sa.Date(), nullable=False, server_default="2000-01-01"),
        sa.Column("week", sa.Date(), nullable=False, server_default="2000-01-01"),
        sa.Column("ordinal", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("ordinal_unassisted", sa.BigInteger(), nullable=True),
        sa.Column("day_ordinal", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("day_ordinal_unassisted", sa.Integer(), nullable=True),
    ]
    # Plain ADD COLUMN (with a default for the NOT NULL ones), not a batch rebuild of the
    # table: on SQLite that would drop migration 0004's triggers on ``scores``.
    for column in new_columns:
        op.add_column("scores", column)
    totals = op.create_table(
        "leaderboard_totals",
        sa.Column("score", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("wins", sa.BigInteger(), nullable=False),
        sa.Column("wins_unassisted", sa.BigInteger(), nullable=False),
        sa.Column("last_finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("score", name=op.f("pk_leaderboard_totals")),
    )
    days = op.create_table(
        "leaderboard_days",
        sa.Column("week", sa.Date(), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("score", sa.SmallInteger(), autoincrement=False, nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("wins_unassisted", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("week", "day", "score", name=op.f("pk_leaderboard_days")),
    )
    bests = op.create_table(
        "leaderboard_bests",
        sa.Column("board", sa.String(8), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("with_assisted", sa.Boolean(), nullable=False),
        sa.Column("player_key", sa.String(128), nullable=False),
        sa.Column("game_id", sa.Uuid(), nullable=False),
        sa.Column("player", sa.String(32), nullable=False),
        sa.Column("score", sa.SmallInteger(), nullable=False),
        sa.Column("sort_score", sa.SmallInteger(), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("assisted", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_leaderboard_bests_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint(
            "board", "starts_on", "with_assisted", "player_key", name=op.f("pk_leaderboard_bests")
        ),
    )
    _number_existing_wins(totals, days, bests)
    if op.get_bind().dialect.name == "postgresql":
        # The service writes every column; the defaults only filled the existing rows.
        for column in new_columns:
            if column.server_default is not None:
                op.alter_column("scores", column.name, server_default=None)
    op.create_index("ix_scores_day", "scores", ["day", "sort_score", "finished_at", "game_id"])
    op.create_index("ix_scores_week", "scores", ["week", "sort_score", "finished_at", "game_id"])
    op.create_index("ix_leaderboard_bests_game_id", "leaderboard_bests", ["game_id"])
    op.create_index(
        "ix_leaderboard_bests_board",
        "leaderboard_bests",
        ["board", "starts_on", "with_assisted", "sort_score", "finished_at", "game_id"],
    )


def _number_existing_wins(totals: sa.Table, days: sa.Table, bests: sa.Table) -> None:
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(
            _scores.c.game_id,
            _scores.c.player,
            _scores.c.score,
            _scores.c.finished_at,
            _scores.c.assisted,
        ).order_by(_scores.c.finished_at, _scores.c.game_id)
    ).all()
    wins = [0] * (MAX_SCORE + 1)
    wins_unassisted = [0] * (MAX_SCORE + 1)
    last: list[datetime | None] = [None] * (MAX_SCORE + 1)
    by_day: dict[tuple[date, int], list[int]] = {}
    best: dict[tuple[str, date, bool, str], tuple[int, dict[str, object]]] = {}
    updates: list[dict[str, object]] = []
    for game_id, player, score, finished_at, assisted in rows:
        day = _utc_day(finished_at)
        week = day - timedelta(days=day.weekday())
        key = _name_key(player)
        wins[score] += 1
        counts = by_day.setdefault((day, score), [0, 0])
        counts[0] += 1
        if not assisted:
            wins_unassisted[score] += 1
            counts[1] += 1
        last[score] = finished_at
        updates.append(
            {
                "key_id": game_id,
                "player_key": key,
                "day": day,
                "week": week,
                "ordinal": wins[score],
                "ordinal_unassisted": None if assisted else wins_unassisted[score],
                "day_ordinal": counts[0],
                "day_ordinal_unassisted": None if assisted else counts[1],
            }
        )
        entry = {
            "game_id": game_id,
            "player": player,
            "score": score,
            "sort_score": -score,
            "finished_at": finished_at,
            "assisted": assisted,
        }
        for board, starts_on in (("all", ALL_TIME), ("day", day), ("week", week)):
            for with_assisted in (True, False) if not assisted else (True,):
                slot = (board, starts_on, with_assisted, key)
                # Rows come in finish order: an equal score later on does not replace.
                if slot not in best or score > best[slot][0]:
                    best[slot] = (score, entry)
    statement = (
        sa.update(_scores)
        .where(_scores.c.game_id == sa.bindparam("key_id"))
        .values({name: sa.bindparam(name) for name in _NUMBERED})
    )
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start : start + _BATCH])
    op.bulk_insert(
        totals,
        [
            {
                "score": score,
                "wins": wins[score],
                "wins_unassisted": wins_unassisted[score],
                "last_finished_at": last[score],
            }
            for score in range(MAX_SCORE + 1)
        ],
    )
    op.bulk_insert(
        days,
        [
            {
                "week": day - timedelta(days=day.weekday()),
                "day": day,
                "score": score,
                "wins": counts[0],
                "wins_unassisted": counts[1],
            }
            for (day, score), counts in by_day.items()
        ],
    )
    op.bulk_insert(
        bests,
        [
            {
                "board": board,
                "starts_on": starts_on,
                "with_assisted": with_assisted,
                "player_key": key,
                **entry,
            }
            for (board, starts_on, with_assisted, key), (_, entry) in best.items()
        ],
    )


def downgrade() -> None:
    op.drop_index("ix_leaderboard_bests_board", table_name="leaderboard_bests")
    op.drop_index("ix_leaderboard_bests_game_id", table_name="leaderboard_bests")
    op.drop_table("leaderboard_bests")
    op.drop_table("leaderboard_days")
    op.drop_table("leaderboard_totals")
    op.drop_index("ix_scores_week", table_name="scores")
    op.drop_index("ix_scores_day", table_name="scores")
    # SQLite 3.35+ drops columns in place (its triggers on ``scores`` stay).
    for name in (
        "day_ordinal_unassisted",
        "day_ordinal",
        "ordinal_unassisted",
        "ordinal",
        "week",
        "day",
        "player_key",
    ):
        op.drop_column("scores", name)
