"""The leaderboard's counters, ordinals and players' bests against a recount of its won
games (``foursquare check-leaderboard``), and their rebuild from it (``--repair``)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from datetime import date
from typing import Any, NamedTuple

from sqlalchemy import case, delete, func, insert, literal, or_, select, text, update
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.leaderboards.store import ALL_TIME
from api.leaderboards.tables import leaderboard_bests as bests
from api.leaderboards.tables import leaderboard_days as days
from api.leaderboards.tables import leaderboard_revision as revision
from api.leaderboards.tables import leaderboard_totals as totals
from api.leaderboards.tables import scores


class Drift(NamedTuple):
    """A stored leaderboard figure that differs from a recount of the ``scores`` rows."""

    table: str  # where it is stored
    key: str  # which row
    stored: str
    counted: str


# Recounts of the won games, by score and by day and score, with how many had no hints.
_UNASSISTED_WINS = func.sum(case((scores.c.assisted.is_(False), 1), else_=0)).label("plain")
_COUNTED_TOTALS = select(
    scores.c.score,
    func.count().label("wins"),
    _UNASSISTED_WINS,
    func.max(scores.c.finished_at).label("last"),
).group_by(scores.c.score)
_BY_DAY = (scores.c.week, scores.c.day, scores.c.score)
_COUNTED_DAYS = select(*_BY_DAY, func.count().label("wins"), _UNASSISTED_WINS).group_by(*_BY_DAY)


def leaderboard_drift(session: Executor) -> list[Drift]:
    """Every counter, ordinal and player's best that differs from a recount of ``scores``.

    Ranks and board sizes are sums of these (:class:`LeaderboardTotalRow`): they are right
    only while each win was counted once, in finish order, by :func:`record_win`. A row
    deleted or edited by hand, or restored from an older backup than its counters, shows here.
    Run it in one snapshot (the caller's transaction), or concurrent wins look like drift.
    """
    counted = session.execute(_COUNTED_TOTALS).all()
    stored = session.execute(select(totals)).all()
    drift = _counts_drift(
        "leaderboard_totals",
        {(row.score,): (row.wins, row.wins_unassisted) for row in stored},
        {(row.score,): (row.wins, row.plain) for row in counted},
        lambda score: f"score {score}",
    )
    # A later stamp is harmless; an earlier one would let a new win rank before an old.
    last_win = {row.score: row.last for row in counted}
    drift.extend(
        Drift(
            "leaderboard_totals",
            f"score {row.score} last_finished_at",
            str(row.last_finished_at),
            f"not before {last_win[row.score]}",
        )
        for row in stored
        if row.score in last_win
        and (row.last_finished_at is None or row.last_finished_at < last_win[row.score])
    )

    drift += _counts_drift(
        "leaderboard_days",
        {
            (row.week, row.day, row.score): (row.wins, row.wins_unassisted)
            for row in session.execute(select(days))
        },
        {
            (row.week, row.day, row.score): (row.wins, row.plain)
            for row in session.execute(_COUNTED_DAYS)
        },
        lambda week, day, score: f"{day} (week {week}) score {score}",
    )
    drift.extend(_ordinal_drift(session))
    drift.extend(_best_drift(session))
    return drift


def _counts_drift(
    table: str,
    stored: dict[tuple[Any, ...], tuple[int, int]],
    counted: dict[tuple[Any, ...], tuple[int, int]],
    label: Callable[..., str],
) -> list[Drift]:
    """The rows of a counter ``table`` whose (wins, wins without hints) differ from
    ``counted``, both by the table's key; a missing row stands for no wins, as
    :func:`record_win`'s upserts treat it. ``label`` names a row from its key."""
    drift = []
    for key in sorted(stored.keys() | counted.keys()):
        had, has = stored.get(key), counted.get(key, (0, 0))
        if (had or (0, 0)) != has:
            drift.append(
                Drift(
                    table,
                    label(*key),
                    "no row" if had is None else f"{had[0]} won ({had[1]} without hints)",
                    f"{has[0]} won ({has[1]} without hints)",
                )
            )
    return drift


def _numbered_scores() -> tuple[Any, dict[str, Any], Any]:
    """``scores`` numbered in finish order; each ordinal column's right value over it (its
    place among its score's games, among those without hints or NULL for an assisted game,
    and the same two within its day); and whether any stored ordinal differs from it."""
    order = (scores.c.finished_at, scores.c.game_id)
    c = scores.c
    numbered = select(
        c.game_id,
        c.assisted,
        c.ordinal,
        c.ordinal_unassisted,
        c.day_ordinal,
        c.day_ordinal_unassisted,
        func.row_number().over(partition_by=c.score, order_by=order).label("n"),
        func.row_number().over(partition_by=(c.score, c.assisted), order_by=order).label("n_p"),
        func.row_number().over(partition_by=(c.day, c.score), order_by=order).label("n_d"),
        func.row_number()
        .over(partition_by=(c.day, c.score, c.assisted), order_by=order)
        .label("n_dp"),
    ).subquery()
    n = numbered.c
    unassisted = n.assisted.is_(False)
    right = {
        "ordinal": n.n,
        "ordinal_unassisted": case((unassisted, n.n_p), else_=None),
        "day_ordinal": n.n_d,
        "day_ordinal_unassisted": case((unassisted, n.n_dp), else_=None),
    }
    wrong = or_(*(n[name].is_distinct_from(value) for name, value in right.items()))
    return numbered, right, wrong


def _ordinal_drift(session: Executor) -> list[Drift]:
    """``scores`` rows whose ordinals are not their places in finish order (row_number)."""
    numbered, right, wrong = _numbered_scores()
    n = numbered.c
    # The game, its four stored ordinals, then the same four as they should be.
    statement = select(n.game_id, *(n[name] for name in right), *right.values())
    rows = session.execute(statement.where(wrong).order_by(n.game_id)).all()
    return [
        Drift("scores", f"game {row[0]}", _ordinals(row[1:5]), _ordinals(row[5:])) for row in rows
    ]


def _ordinals(values: Sequence[Any]) -> str:
    ordinal, unassisted, day, day_unassisted = values
    return f"ordinals {ordinal}/{unassisted}, day {day}/{day_unassisted}"


def _best_drift(session: Executor) -> list[Drift]:
    """``leaderboard_bests`` rows that are not each player's first game in board order, and
    players' boards that have no row."""
    expected: dict[tuple[str, date, bool, str], uuid.UUID] = {}
    for listing in _best_listings():
        for row in session.execute(listing):
            key = (row.board, row.starts_on, row.with_assisted, row.player_key)
            expected[key] = row.game_id
    drift: list[Drift] = []
    for row in session.execute(select(bests)):
        key = (row.board, row.starts_on, row.with_assisted, row.player_key)
        game_id = expected.pop(key, None)
        if game_id != row.game_id:
            drift.append(_best(key, str(row.game_id), str(game_id) if game_id else "no row"))
    drift.extend(_best(key, "no row", str(game_id)) for key, game_id in expected.items())
    return drift


def _best_listings() -> list[Any]:
    """For each of the six listings of players' bests (all time, day, week; with assisted
    games or not), a SELECT of each player's first game in board order, in the columns of
    ``leaderboard_bests``."""
    c = scores.c
    listings = []
    for board, starts_on in (("all", literal(ALL_TIME)), ("day", c.day), ("week", c.week)):
        for with_assisted in (True, False):
            partition = (c.player_key,) if board == "all" else (c.player_key, starts_on)
            ranked = select(
                literal(board).label("board"),
                starts_on.label("starts_on"),
                literal(with_assisted).label("with_assisted"),
                *(c[name] for name in _BEST_COPIED),
                func.row_number()
                .over(partition_by=partition, order_by=(c.sort_score, c.finished_at, c.game_id))
                .label("n"),
            )
            if not with_assisted:
                ranked = ranked.where(c.assisted.is_(False))
            sub = ranked.subquery()
            listings.append(select(*(sub.c[name] for name in _BEST_COLUMNS)).where(sub.c.n == 1))
    return listings


_BEST_COPIED = ("player_key", "game_id", "player", "score", "sort_score", "finished_at", "assisted")
_BEST_COLUMNS = ("board", "starts_on", "with_assisted", *_BEST_COPIED)


def _best(key: tuple[str, date, bool, str], stored: str, counted: str) -> Drift:
    board, starts_on, with_assisted, player_key = key
    where = "all time" if board == "all" else f"{board} of {starts_on}"
    hints = "with" if with_assisted else "without"
    return Drift(
        "leaderboard_bests", f"{player_key!r}, {where}, {hints} assisted games", stored, counted
    )


def lock_leaderboard(session: Session) -> None:
    """Keep wins out of the leaderboard's tables until the transaction ends; reads go on.

    On PostgreSQL an ``EXCLUSIVE`` lock on each table a win writes, taken in the order
    :func:`last_win_of_score` and :func:`record_win` take theirs: a win under way holds the
    first of them, so it finishes before this lock is granted instead of deadlocking with
    it. SQLite's write transactions already hold the whole database."""
    connection = session.connection()
    if connection.dialect.name == "postgresql":
        tables = "leaderboard_totals, leaderboard_days, scores, leaderboard_bests"
        connection.execute(text(f"LOCK TABLE {tables} IN EXCLUSIVE MODE"))


def rebuild_leaderboard(session: Session) -> None:
    """Set every counter, ordinal and player's best to a recount of the ``scores`` rows: what
    :func:`leaderboard_drift` compares them with. The caller's transaction must keep wins out
    until it commits (:func:`lock_leaderboard`), or a win counted meanwhile would be lost.

    Each total's ``last_finished_at`` becomes its score's latest finish; the leaderboard
    revision is bumped, so that no process serves a page it cached before."""
    connection = session.connection()
    # One pass over ``scores`` for all the totals; scores with no win left get zeros first.
    counted = _COUNTED_TOTALS.subquery()
    connection.execute(update(totals).values(wins=0, wins_unassisted=0, last_finished_at=None))
    connection.execute(
        update(totals)
        .where(totals.c.score == counted.c.score)
        .values(
            wins=counted.c.wins, wins_unassisted=counted.c.plain, last_finished_at=counted.c.last
        )
    )
    connection.execute(delete(days))
    day_columns = ["week", "day", "score", "wins", "wins_unassisted"]
    connection.execute(insert(days).from_select(day_columns, _COUNTED_DAYS))
    numbered, right, wrong = _numbered_scores()
    connection.execute(
        update(scores).where(scores.c.game_id == numbered.c.game_id, wrong).values(**right)
    )
    connection.execute(delete(bests))
    for listing in _best_listings():
        connection.execute(insert(bests).from_select(list(_BEST_COLUMNS), listing))
    connection.execute(update(revision).values(revision=revision.c.revision + 1))
