"""One name rule: names that differ only by ``_`` and ``-`` are one name, so
``players.name_skeleton`` and the boards' ``scores.player_key`` are recomputed with
api.core.names.name_skeleton as of this revision (0014's skeleton without ``_`` and ``-``), and
the ``per_player=best`` boards' ``leaderboard_bests`` rebuilt from them: stored guests
``alice_``, ``a-l-i-c-e`` and ``alice`` are one entry there, ``___`` and ``--_`` another.

Two existing accounts that are now one name (``alice`` and ``alice_``, or ``___`` and ``--_``)
both stay, with their names, keys, stats, games and pages: nothing is merged, renamed or
deleted, because a name is what its player is found by and plays under, and the later
account's player registered it under the rule of its day. The one registered first gets the
plain skeleton, each later one the skeleton, ``#`` and its id (no account name's skeleton has
a ``#``), as in 0013 and 0014. So the column stays unique, and a new registration of a name
that is one name with theirs (``a_lice``) finds the first one's plain skeleton and is refused
(``409 name_taken``), as is a guest's game under it. The later account keeps its own name (its
``name_key`` is unique) and plays under it with its key; the wins of both share one entry on
the ``per_player=best`` boards, which group the name on each game by skeleton. Accounts whose
names have no letter, or are one name with ``computer``, keep them too (new ones are refused).
The migration names each such account in its log. Downgrading recomputes 0014's skeletons,
and the collisions 0014 knew.

Revision ID: 0016_name_rule
Revises: 0015_races
Create Date: 2026-12-04
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable, Sequence
from datetime import UTC, date, timedelta

import icu
import sqlalchemy as sa
from alembic import op

revision: str = "0016_name_rule"
down_revision: str | None = "0015_races"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

logger = logging.getLogger("alembic.runtime.migration")

ALL_TIME = date(2000, 1, 1)  # leaderboard_bests.starts_on of the all-time board
SKELETON_LENGTH = 128
_BATCH = 5_000
_INVISIBLE = icu.UnicodeSet(r"[[:M:][:C:][:Z:][:Default_Ignorable_Code_Point:]\u2800]")
_SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
_SPOOF = icu.SpoofChecker()
_SEPARATORS = str.maketrans("", "", "_-")
# What the migration names in its log: accounts the rule would refuse now, whose name has no
# letter or is one name with the computer player's.
_COMPUTER = "computer"
_LETTER = re.compile("[A-Za-z]")

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


def _visible_parts(name: str) -> str:
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", name))
    return "".join(_visible(char) for char in decomposed)


def _confusable(name: str) -> str:
    skeleton: str = _SPOOF.getSkeleton(0, _visible_parts(name))
    skeleton = _SPOOF.getSkeleton(0, skeleton.upper())
    skeleton = _SPOOF.getSkeleton(0, skeleton.casefold())
    return "".join(_visible(char) for char in skeleton)


def _skeleton_0014(name: str) -> str:
    """Revision 0014's skeleton (for the downgrade)."""
    return _confusable(name)[:SKELETON_LENGTH]


def _skeleton_0016(name: str) -> str:
    """api.core.names.name_skeleton as of this revision, frozen here as migrations must be
    (the confusables data is ICU's, and moves with it): 0014's, without ``_`` and ``-``."""
    return _confusable(name).translate(_SEPARATORS)[:SKELETON_LENGTH]


def upgrade() -> None:
    computer = _skeleton_0016(_COMPUTER)
    for name in op.get_bind().execute(sa.select(_players.c.name)).scalars():
        if _LETTER.search(name) is None or _skeleton_0016(name) == computer:
            logger.warning("player %r kept: the name rule refuses new names like it", name)
    _reskeleton(_skeleton_0016)


def downgrade() -> None:
    _reskeleton(_skeleton_0014)


def _reskeleton(skeleton_of: Callable[[str], str]) -> None:
    """Every account's skeleton, and the boards' keys, as ``skeleton_of`` their names."""
    connection = op.get_bind()
    rows = connection.execute(
        sa.select(_players.c.id, _players.c.name).order_by(_players.c.created_at, _players.c.id)
    ).all()
    first_of: dict[str, str] = {}
    updates = []
    for player_id, name in rows:
        skeleton = skeleton_of(name)
        if skeleton in first_of:
            logger.warning(
                "players %r and %r are one name (skeleton %r): both kept, %r registered later",
                first_of[skeleton],
                name,
                skeleton,
                name,
            )
            skeleton = f"{skeleton}#{player_id.hex}"
        else:
            first_of[skeleton] = name
        updates.append({"key_id": player_id, "skeleton": skeleton})
    # Without the unique index while the rows change: a row may take a skeleton another row
    # holds until its own update.
    op.drop_index("ix_players_name_skeleton", table_name="players")
    statement = (
        sa.update(_players)
        .where(_players.c.id == sa.bindparam("key_id"))
        .values(name_skeleton=sa.bindparam("skeleton"))
    )
    for start in range(0, len(updates), _BATCH):
        connection.execute(statement, updates[start : start + _BATCH])
    op.create_index("ix_players_name_skeleton", "players", ["name_skeleton"], unique=True)
    _rekey_scores(skeleton_of)


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
