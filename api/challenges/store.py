"""The SQL of the daily challenge: a player's game of a day, a day's counts and its board."""

from __future__ import annotations

import functools
import uuid
from datetime import date, datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, Table, and_, bindparam, case, func, or_, select, tuple_

from api.core.database import Executor
from api.core.models import GameRow

_games = cast(Table, GameRow.__table__)


class ChallengeEntryRecord(NamedTuple):
    """A won game of one day's challenge, as its board lists it."""

    game_id: uuid.UUID
    player: str
    score: int
    finished_at: datetime
    assisted: bool


ChallengeBoardKey = tuple[int, datetime, uuid.UUID]  # (score, finished_at, game_id)

_CHALLENGE_COUNTS = select(
    func.count(),
    func.coalesce(func.sum(case((_games.c.status == "won", 1), else_=0)), 0),
).where(_games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type))


def challenge_counts(session: Executor, day: date) -> tuple[int, int]:
    """How many games of ``day``'s challenge were started, and how many are won: a range
    scan of ``uq_games_challenge_date``."""
    played, won = session.execute(_CHALLENGE_COUNTS, {"day": day}).one()
    return int(played), int(won)


@functools.cache
def _challenge_board_statement(after: bool) -> Select[uuid.UUID, str, int, datetime, bool]:
    """The day's won, unassisted challenge games, best score first, earlier finish first.

    A range scan of ``uq_games_challenge_date`` for the day, sorted: a day's challenge holds
    at most one game per player, so the sort is over that day's games only."""
    columns = (_games.c[name] for name in ChallengeEntryRecord._fields[1:])
    statement = select(_games.c.id, *columns).where(
        _games.c.challenge_date == bindparam("day", type_=_games.c.challenge_date.type),
        _games.c.status == "won",
        _games.c.assisted == bindparam("assisted"),
        # On the board once the fair-play review has found it clean (or a moderator cleared
        # it); NULL for the wins from before the review (api.fairplay).
        or_(_games.c.review.is_(None), _games.c.review.in_(("clean", "cleared"))),
    )
    if after:
        score = bindparam("score", type_=_games.c.score.type)
        later = tuple_(_games.c.finished_at, _games.c.id) > tuple_(
            bindparam("finished_at", type_=_games.c.finished_at.type),
            bindparam("game_id", type_=_games.c.id.type),
        )
        statement = statement.where(
            or_(_games.c.score < score, and_(_games.c.score == score, later))
        )
    return statement.order_by(_games.c.score.desc(), _games.c.finished_at, _games.c.id).limit(
        bindparam("limit")
    )


def challenge_board(
    session: Executor, day: date, after: ChallengeBoardKey | None, limit: int
) -> list[ChallengeEntryRecord]:
    """``day``'s challenge board after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"day": day, "assisted": False, "limit": limit}
    if after is not None:
        parameters["score"], parameters["finished_at"], parameters["game_id"] = after
    statement = _challenge_board_statement(after is not None)
    return [ChallengeEntryRecord._make(row) for row in session.execute(statement, parameters)]
