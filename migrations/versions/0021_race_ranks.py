"""The finished races ranked again by the rule that rewards playing on.

Before this revision a race's losses were ranked by their end, the earlier first: a racer who
lost after 8 placements ranked above the computer that lost after 37, and counted the race as
won. From this revision a win comes before every loss, the higher score first; among losses
the game that went further (more placements) comes first; ties go to the earlier end of the
game, then the earlier join (``api.races.ticker._ranking``, for the races that finish from now
on). Each finished race's ``race_racers.rank`` is written again by that rule, and so is its
stored ``result`` event (the racers in their new order, each with its new rank), so that the
race's page, its stream and its racers' figures agree. The rule is written out here rather
than imported: a revision ranks as the rule stood when it was written.

Downgrading ranks the finished races again by the rule before it (won before lost, the higher
score, the earlier end, the earlier join).

Revision ID: 0021_race_ranks
Revises: 0020_replay_secrets
Create Date: 2026-12-05
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from datetime import datetime
from itertools import groupby
from typing import Any, NamedTuple

import sqlalchemy as sa
from alembic import op

revision: str = "0021_race_ranks"
down_revision: str | None = "0020_replay_secrets"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_races = sa.table("races", sa.column("id", sa.Uuid()), sa.column("status", sa.String()))
_racers = sa.table(
    "race_racers",
    sa.column("race_id", sa.Uuid()),
    sa.column("number", sa.SmallInteger()),
    sa.column("game_id", sa.Uuid()),
    sa.column("rank", sa.SmallInteger()),
)
_games = sa.table(
    "games",
    sa.column("id", sa.Uuid()),
    sa.column("status", sa.String()),
    sa.column("score", sa.SmallInteger()),
    sa.column("placements_count", sa.SmallInteger()),
    sa.column("finished_at", sa.DateTime(timezone=True)),
)
_events = sa.table(
    "race_events",
    sa.column("race_id", sa.Uuid()),
    sa.column("number", sa.Integer()),
    sa.column("kind", sa.String()),
    sa.column("data", sa.Text()),
)

_BATCH = 500  # races whose result events are read in one statement


class Racer(NamedTuple):
    """A finished race's racer, and its game's outcome (None: it was never dealt)."""

    race_id: uuid.UUID
    number: int
    rank: int | None
    status: str | None
    score: int | None
    placements_count: int | None
    finished_at: datetime | None


Key = tuple[int, int, bool, datetime, int]


def _playing_on(racer: Racer) -> Key:
    """A win before every loss, the higher score first; among losses, more placements first;
    then the earlier end, then the earlier join."""
    if racer.status is None:  # never dealt: last
        return 2, 0, True, datetime.min, racer.number
    if racer.status == "won":
        return 0, -(racer.score or 0), *_end(racer), racer.number
    return 1, -(racer.placements_count or 0), *_end(racer), racer.number


def _earlier_end(racer: Racer) -> Key:
    """The rule before this revision: won before lost, the higher score, the earlier end,
    the earlier join."""
    if racer.status is None:
        return 2, 0, True, datetime.min, racer.number
    return int(racer.status != "won"), -(racer.score or 0), *_end(racer), racer.number


def _end(racer: Racer) -> tuple[bool, datetime]:
    # An unended game after every ended one (it compares no datetime with another of them).
    return racer.finished_at is None, racer.finished_at or datetime.min


def upgrade() -> None:
    _rank_again(op.get_bind(), _playing_on)


def downgrade() -> None:
    _rank_again(op.get_bind(), _earlier_end)


def _rank_again(connection: sa.Connection, key: Callable[[Racer], Key]) -> None:
    """Rank every finished race's racers by ``key``; where a rank moves, write the racers'
    ranks and the race's ``result`` event again (one read of every finished race's racers,
    writes only for the races whose ranking changes)."""
    statement = (
        sa.select(
            _racers.c.race_id,
            _racers.c.number,
            _racers.c.rank,
            _games.c.status,
            _games.c.score,
            _games.c.placements_count,
            _games.c.finished_at,
        )
        .join(_races, _races.c.id == _racers.c.race_id)
        .outerjoin(_games, _games.c.id == _racers.c.game_id)
        .where(_races.c.status == "finished")
        .order_by(_racers.c.race_id, _racers.c.number)
    )
    racers = [Racer._make(row) for row in connection.execute(statement)]
    moved: list[dict[str, Any]] = []
    ranks: dict[uuid.UUID, dict[int, int]] = {}
    for race_id, group in groupby(racers, key=lambda racer: racer.race_id):
        race = list(group)
        ranked = {racer.number: place for place, racer in enumerate(sorted(race, key=key), 1)}
        was = {racer.number: racer.rank for racer in race}
        if ranked != was:
            ranks[race_id] = ranked
            moved += [{"race": race_id, "racer": n, "place": p} for n, p in ranked.items()]
    if not moved:
        return
    connection.execute(
        sa.update(_racers)
        .where(_racers.c.race_id == sa.bindparam("race"), _racers.c.number == sa.bindparam("racer"))
        .values(rank=sa.bindparam("place")),
        moved,
    )
    rewritten = []
    changed = list(ranks)
    for start in range(0, len(changed), _BATCH):
        results = connection.execute(
            sa.select(_events.c.race_id, _events.c.number, _events.c.data).where(
                _events.c.kind == "result", _events.c.race_id.in_(changed[start : start + _BATCH])
            )
        )
        rewritten += [
            {"race": race, "event": number, "text": _result(data, ranks[race])}
            for race, number, data in results
        ]
    if rewritten:
        connection.execute(
            sa.update(_events)
            .where(
                _events.c.race_id == sa.bindparam("race"),
                _events.c.number == sa.bindparam("event"),
            )
            .values(data=sa.bindparam("text")),
            rewritten,
        )


def _result(data: str, ranked: dict[int, int]) -> str:
    """A ``result`` event's JSON with its racers in their new order, each with its new rank
    (written compact and in UTF-8, as the service writes its events)."""
    result = json.loads(data)
    for racer in result["racers"]:
        racer["rank"] = ranked[racer["racer"]]
    result["racers"].sort(key=lambda racer: racer["rank"])
    return json.dumps(result, separators=(",", ":"), ensure_ascii=False)
