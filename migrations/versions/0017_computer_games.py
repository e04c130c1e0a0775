"""The computer's games and a game's deadline: ``games.computer``, ``games.deadline`` and
``races.computer_level``.

The computer player races under its own identity: its games are marked ``computer`` and kept
off every leaderboard. Before this revision a race's computer racer played as a guest called
``computer`` and its wins were on the boards; this revision marks those games (the
``race_racers`` rows of the computer name them) and takes their wins off every board as a
recount would: each win's ``scores`` row is deleted, the counts of its score (all time and its
day) lose one, the games of that score that finished after it move up one ordinal, and a
player's best that was such a win is replaced by their next best. ``games.deadline`` is the
moment after which a game takes no placement (a race's end); ``races.computer_level`` the
computer racer's level (``best`` for the races opened before there were levels).

Downgrading drops the columns; the computer's wins stay off the boards.

Revision ID: 0017_computer_games
Revises: 0016_name_rule
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017_computer_games"
down_revision: str | None = "0016_name_rule"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_games = sa.table("games", sa.column("id", sa.Uuid()), sa.column("computer", sa.Boolean()))
_racers = sa.table(
    "race_racers", sa.column("game_id", sa.Uuid()), sa.column("computer", sa.Boolean())
)
_scores = sa.table(
    "scores",
    *(
        sa.column(name, kind)
        for name, kind in (
            ("game_id", sa.Uuid()),
            ("player", sa.String()),
            ("score", sa.SmallInteger()),
            ("sort_score", sa.SmallInteger()),
            ("finished_at", sa.DateTime(timezone=True)),
            ("assisted", sa.Boolean()),
            ("player_key", sa.String()),
            ("day", sa.Date()),
            ("week", sa.Date()),
            ("ordinal", sa.BigInteger()),
            ("ordinal_unassisted", sa.BigInteger()),
            ("day_ordinal", sa.Integer()),
            ("day_ordinal_unassisted", sa.Integer()),
        )
    ),
)
_totals = sa.table(
    "leaderboard_totals",
    sa.column("score", sa.SmallInteger()),
    sa.column("wins", sa.BigInteger()),
    sa.column("wins_unassisted", sa.BigInteger()),
)
_days = sa.table(
    "leaderboard_days",
    sa.column("week", sa.Date()),
    sa.column("day", sa.Date()),
    sa.column("score", sa.SmallInteger()),
    sa.column("wins", sa.Integer()),
    sa.column("wins_unassisted", sa.Integer()),
)
_bests = sa.table(
    "leaderboard_bests",
    *(
        sa.column(name, kind)
        for name, kind in (
            ("board", sa.String()),
            ("starts_on", sa.Date()),
            ("with_assisted", sa.Boolean()),
            ("player_key", sa.String()),
            ("game_id", sa.Uuid()),
            ("player", sa.String()),
            ("score", sa.SmallInteger()),
            ("sort_score", sa.SmallInteger()),
            ("finished_at", sa.DateTime(timezone=True)),
            ("assisted", sa.Boolean()),
        )
    ),
)
_races = sa.table("races", sa.column("computer_level", sa.String()))


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("computer", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch.add_column(sa.Column("deadline", sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table("races") as batch:
        batch.add_column(sa.Column("computer_level", sa.String(16), nullable=True))
    connection = op.get_bind()
    connection.execute(sa.update(_races).values(computer_level="best"))
    computers = sa.select(_racers.c.game_id).where(
        _racers.c.computer.is_(True), _racers.c.game_id.is_not(None)
    )
    connection.execute(sa.update(_games).where(_games.c.id.in_(computers)).values(computer=True))
    wins = connection.execute(
        sa.select(_scores)
        .where(_scores.c.game_id.in_(computers))
        .order_by(_scores.c.ordinal.desc())
    ).all()
    for win in wins:
        _unrecord(connection, win)
    _replace_bests(connection, [win.game_id for win in wins])


def _unrecord(connection: sa.Connection, win: sa.Row[tuple[object, ...]]) -> None:
    """Take one win off the boards, as if it had never been counted."""
    plain = 0 if win.assisted else 1
    same_score = _scores.c.score == win.score
    same_day = sa.and_(same_score, _scores.c.day == win.day)
    later = (
        (sa.and_(same_score, _scores.c.ordinal > win.ordinal), "ordinal", win.ordinal),
        (
            sa.and_(same_score, _scores.c.ordinal_unassisted > win.ordinal_unassisted),
            "ordinal_unassisted",
            win.ordinal_unassisted,
        ),
        (
            sa.and_(same_day, _scores.c.day_ordinal > win.day_ordinal),
            "day_ordinal",
            win.day_ordinal,
        ),
        (
            sa.and_(same_day, _scores.c.day_ordinal_unassisted > win.day_ordinal_unassisted),
            "day_ordinal_unassisted",
            win.day_ordinal_unassisted,
        ),
    )
    connection.execute(sa.delete(_scores).where(_scores.c.game_id == win.game_id))
    for where, column, ordinal in later:
        if ordinal is not None:
            connection.execute(
                sa.update(_scores).where(where).values({column: _scores.c[column] - 1})
            )
    connection.execute(
        sa.update(_totals)
        .where(_totals.c.score == win.score)
        .values(wins=_totals.c.wins - 1, wins_unassisted=_totals.c.wins_unassisted - plain)
    )
    connection.execute(
        sa.update(_days)
        .where(_days.c.week == win.week, _days.c.day == win.day, _days.c.score == win.score)
        .values(wins=_days.c.wins - 1, wins_unassisted=_days.c.wins_unassisted - plain)
    )


def _replace_bests(connection: sa.Connection, game_ids: list[object]) -> None:
    """A player's best that was one of ``game_ids`` gives way to their next best on that
    board, if they have one."""
    if not game_ids:
        return
    gone = connection.execute(sa.select(_bests).where(_bests.c.game_id.in_(game_ids))).all()
    connection.execute(sa.delete(_bests).where(_bests.c.game_id.in_(game_ids)))
    for best in gone:
        window = {
            "all": sa.true(),
            "day": _scores.c.day == best.starts_on,
            "week": _scores.c.week == best.starts_on,
        }[best.board]
        assisted = sa.true() if best.with_assisted else _scores.c.assisted.is_(False)
        following = connection.execute(
            sa.select(_scores)
            .where(_scores.c.player_key == best.player_key, window, assisted)
            .order_by(_scores.c.sort_score, _scores.c.finished_at, _scores.c.game_id)
            .limit(1)
        ).first()
        if following is not None:
            columns = ("game_id", "player", "score", "sort_score", "finished_at", "assisted")
            connection.execute(
                sa.insert(_bests).values(
                    board=best.board,
                    starts_on=best.starts_on,
                    with_assisted=best.with_assisted,
                    player_key=best.player_key,
                    **{name: getattr(following, name) for name in columns},
                )
            )


def downgrade() -> None:
    with op.batch_alter_table("races") as batch:
        batch.drop_column("computer_level")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deadline")
        batch.drop_column("computer")
