"""The leaderboards' tables: the won games on the boards, the counters that make a rank a
sum, each player's best games and the wins held off the boards. Only the leaderboards' store
(:mod:`api.leaderboards.store`, :mod:`api.leaderboards.recount`) names them in SQL."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Uuid,
    false,
)

from api.core.models import UTCDateTime, metadata

# A won game on the leaderboard.
#
# ``sort_score`` is ``-score`` so that one ascending index on ``(sort_score, finished_at,
# game_id)`` gives the leaderboard order (best score first, earlier finish first, then id) and
# keyset paging is a single row-value comparison; the day and week boards have the same index
# behind their ``day`` or ``week``.
#
# The ordinals make a game's rank a sum of a few counters instead of a count of the games above
# it (see ``leaderboard_totals``): ``ordinal`` is the game's place among all won games of its
# score in finish order (1 is the earliest), ``ordinal_unassisted`` its place among those
# without hints (NULL for an assisted game), and ``day_ordinal`` and ``day_ordinal_unassisted``
# the same within its UTC day. ``player_key`` is the player's name as look-alike names are
# compared (:func:`api.core.names.name_skeleton`): one player per skeleton on the boards of
# each player's best game.
scores = Table(
    "scores",
    metadata,
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("player", String(32), nullable=False),
    Column("score", SmallInteger, nullable=False),
    Column("sort_score", SmallInteger, nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
    Column("assisted", Boolean, nullable=False, server_default=false()),
    Column("player_key", String(128), nullable=False),
    Column("day", Date, nullable=False),  # the UTC day of finished_at
    Column("week", Date, nullable=False),  # the Monday of finished_at's ISO week
    Column("ordinal", BigInteger, nullable=False),
    Column("ordinal_unassisted", BigInteger),
    Column("day_ordinal", Integer, nullable=False),
    Column("day_ordinal_unassisted", Integer),
    Index("ix_scores_leaderboard", "sort_score", "finished_at", "game_id"),
    Index(
        "ix_scores_leaderboard_by_assistance", "assisted", "sort_score", "finished_at", "game_id"
    ),
    Index("ix_scores_day", "day", "sort_score", "finished_at", "game_id"),
    Index("ix_scores_week", "week", "sort_score", "finished_at", "game_id"),
)

# All-time counts of won games by score (one row per score, 0 to 24, made by migration 0012),
# and the last ``finished_at`` among them.
#
# A game's all-time rank is the number of won games with a better score (a sum over at most 24
# of these rows) plus its ordinal among games of its own score, so it costs the same with a
# million games as with ten. Ending a game with a win locks its score's row, so wins of one
# score are counted, and stamped with a ``finished_at`` later than the last one, one at a time:
# the ordinals follow the leaderboard's order (earlier finish first).
leaderboard_totals = Table(
    "leaderboard_totals",
    metadata,
    Column("score", SmallInteger, primary_key=True, autoincrement=False),
    Column("wins", BigInteger, nullable=False),
    Column("wins_unassisted", BigInteger, nullable=False),
    Column("last_finished_at", UTCDateTime),
)

# Counts of won games by UTC day and score: a rank on a day's board, or on a week's (seven
# days' rows), is a sum of these plus the game's ``day_ordinal``. The key starts with the day's
# ISO week (its Monday), so one week's rows are one range of it.
leaderboard_days = Table(
    "leaderboard_days",
    metadata,
    Column("week", Date, primary_key=True),
    Column("day", Date, primary_key=True),
    Column("score", SmallInteger, primary_key=True, autoincrement=False),
    Column("wins", Integer, nullable=False),
    Column("wins_unassisted", Integer, nullable=False),
)

# Each player's best won game on each board, for ``per_player=best``.
#
# ``board`` is ``all``, ``day`` or ``week``; ``starts_on`` the board's first day (2000-01-01
# for ``all``); ``with_assisted`` whether assisted games count (the listing with
# ``include_assisted=true``). Kept by the transaction that records a win: an upsert that
# replaces the row only for a better score (a later finish never beats an equal score).
leaderboard_bests = Table(
    "leaderboard_bests",
    metadata,
    Column("board", String(8), primary_key=True),
    Column("starts_on", Date, primary_key=True),
    Column("with_assisted", Boolean, primary_key=True),
    Column("player_key", String(128), primary_key=True),
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("player", String(32), nullable=False),
    Column("score", SmallInteger, nullable=False),
    Column("sort_score", SmallInteger, nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
    Column("assisted", Boolean, nullable=False),
    Index("ix_leaderboard_bests_game_id", "game_id"),
    Index(
        "ix_leaderboard_bests_board",
        "board",
        "starts_on",
        "with_assisted",
        "sort_score",
        "finished_at",
        "game_id",
    ),
)

# One row whose ``revision`` the database bumps whenever ``scores`` changes (triggers of
# migration 0004): a cached leaderboard page is current while the number is unchanged.
leaderboard_revision = Table(
    "leaderboard_revision",
    metadata,
    Column("id", SmallInteger, primary_key=True),  # always 1
    Column("revision", BigInteger, nullable=False),
)

# A won game the fair-play review keeps off the boards (pending, flagged, its account marked),
# counted in their captions; ``day`` and ``week`` are its finish's.
leaderboard_held = Table(
    "leaderboard_held",
    metadata,
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("day", Date, nullable=False),
    Column("week", Date, nullable=False),
    Index("ix_leaderboard_held_day", "day"),
    Index("ix_leaderboard_held_week", "week"),
)
