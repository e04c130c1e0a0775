"""The players' table: each account's all-time figures. Only :mod:`api.players.store` names
it in SQL."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Integer, SmallInteger, Table, Uuid

from api.core.models import UTCDateTime, metadata

# A player's all-time figures, updated with atomic ``SET x = x + ...`` statements in the
# transaction that creates or ends one of their games, so they always equal a recount. One
# row per player (a later leaderboard window can key a table like it by period).
player_stats = Table(
    "player_stats",
    metadata,
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("games_played", Integer, nullable=False),  # started, whatever their status
    Column("games_won", Integer, nullable=False),
    Column("games_lost", Integer, nullable=False),
    Column("won_score_total", Integer, nullable=False),  # for the mean winning score
    Column("best_score", SmallInteger),
    Column("current_streak", Integer, nullable=False),  # wins since the last loss
    Column("longest_streak", Integer, nullable=False),
    Column("last_played_at", UTCDateTime),
)
