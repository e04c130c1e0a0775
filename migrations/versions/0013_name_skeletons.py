"""Look-alike names are one name: ``players.name_skeleton`` (Unicode TS #39's confusable
skeleton of the name, computed by ICU; api.core.names), unique, and the leaderboard's
``scores.player_key`` (which groups the ``per_player=best`` boards) becomes the skeleton too.

Existing accounts get their skeleton. Two existing accounts whose names look alike (``bob1``
and ``bobl``) both stay, with their names and keys: the one registered first gets the plain
skeleton, each later one the skeleton followed by ``#`` and its id (no name's skeleton has a
``#``: account names are ASCII letters, digits, ``_`` and ``-``), so that the column can be
unique; the migration names them in its log. Their wins, grouped by the skeleton of the name
on each game, share one entry on the ``per_player=best`` boards. New registrations of a name
that looks like any of them are refused.

``scores.player_key`` is recomputed for every won game and ``leaderboard_bests`` rebuilt
from ``scores`` (the rows are read in finish order, so an equal score later does not replace
a player's best). Downgrading puts back revision 0012's keys (the caseless name) and bests.

Revision ID: 0013_name_skeletons
Revises: 0012
Create Date: 2026-12-02
"""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, date, timedelta

import icu
import sqlalchemy as sa
from alembic import op

revision: str = "0013_name_skeletons"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

logger = logging.getLogger("alembic.runtime.migration")

ALL_TIME = date(2000, 1, 1)  # leaderboard_bests.starts_on of the all-time board
SKELETON_LENGTH = 128
_BATCH = 5_000
_INVISIBLE = icu.UnicodeSet(r"[[:M:][:C:][:Z:][:Default_Ignorable_Code_Point:]\u2800]")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
_SPOOF = icu.SpoofChecker()

_players = sa.table(
    "players",
    sa.column("id", sa.Uuid()),
    sa.column("name", sa.String()),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("name_skeleton", sa.String()),
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
)
_bests = sa.table(
    "leaderboard_bests",
    sa.column("board", sa.String()),
    sa.column("starts_on", sa.Date()),
    sa.column("with_assisted", sa.Boolean()),
    sa.column("player_key", sa.String()),
    sa.column("game_id", sa.Uuid()),
    sa.column("player", sa.String()),
    sa.column("score", sa.SmallInteger()),
    sa.column("sort_score", sa.SmallInteger()),
    sa.column("finished_at", sa.DateTime(timezone=True)),
    sa.column("assisted", sa.Boolean()),
)


def _visible(char: str) -> str:
    if _INVISIBLE.contains(char):
        return ""
    name = unicodedata.name(char, "")
    if name.startswith(_SMALL_CAPITAL):
        try:
            return unicodedata.lookup("LATIN SMALL LETTER " + name.removeprefix(_SMALL_CAPITAL))
        except KeyError:
            return char
    return char


def _name_skeleton(name: str) -> str:
    """api.core.names.name_skeleton as of this revision, frozen here as migrations must be
    (the confusables data is ICU's, and moves with it)."""
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    visible = "".join(_visible(char) for char in decomposed)
    skeleton: str = _SPOOF.getSkeleton(0, _SPOOF.getSkeleton(0, visible).casefold())
    return skeleton[:SKELETON_LENGTH]


def _name_key(name: str) -> str:
    """Revision 0012's ``scores.player_key``: the caseless name."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return "".join(char for char in folded if unicodedata.category(char) != "Cf").strip()


def upgrade() -> None:
    connection = op.get_bind()
    op.add_column(
        "players", sa.Column("name_skeleton", sa.String(128), nullable=False, server_default="")
    )
    rows = connection.execute(
        sa.select(_players.c.id, _players.c.name).order_by(_players.c.created_at, _players.c.id)
    ).all()
    first_of: dict[str, str] = {}
    updates = []
    for player_id, name in rows:
        skeleton = _name_skeleton(name)
        if skeleton in first_of:
            logger.warning(
                "players %r and %r look alike (skeleton %r): both kept, %r registered later",
                first_of[skeleton],
                name,
                skeleton,
                name,
            )
            skeleton = f"{skeleton}#{player_id.hex}"
        else:
            first_of[skeleton] = name
        updates.append({"key_id": player_id, "skeleton": skeleton})
    statement = (
        sa.update(_players)
        .where(_players.c.id == sa.bindparam("key_id"))
        .values(name_skeleton=sa.bindparam("skeleton"))
    )
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start : start + _BATCH])
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"], unique=True)
    _rekey_scores(_name_skeleton)


def downgrade() -> None:
    op.drop_index("ix_players_name_skeleton", table_name="players")
    op.drop_column("players", "name_skeleton")
    _rekey_scores(_name_key)


def _rekey_scores(key_of: Callable[[str], str]) -> None:
    """Every ``scores.player_key`` as ``key_of`` the player's name, and the players' bests
    rebuilt from them."""
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
    updates = []
    best: dict[tuple[str, date, bool, str], tuple[int, dict[str, object]]] = {}
    for game_id, player, score, finished_at, assisted in rows:
        key = key_of(player)
        updates.append({"key_id": game_id, "key": key})
        moment = finished_at if finished_at.tzinfo else finished_at.replace(tzinfo=UTC)
        day = moment.astimezone(UTC).date()
        week = day - timedelta(days=day.weekday())
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
                if slot not in best or score > best[slot][0]:
                    best[slot] = (score, entry)
    statement = (
        sa.update(_scores)
        .where(_scores.c.game_id == sa.bindparam("key_id"))
        .values(player_key=sa.bindparam("key"))
    )
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start : start + _BATCH])
    connection.execute(sa.delete(_bests))
    values = [
        {
            "board": board,
            "starts_on": starts_on,
            "with_assisted": with_assisted,
            "player_key": key,
            **entry,
        }
        for (board, starts_on, with_assisted, key), (_, entry) in best.items()
    ]
    for start in range(0, len(values), _BATCH):
        op.bulk_insert(_bests, values[start : start + _BATCH])
