"""The fair-play review's tables. Only :mod:`api.fairplay.store` names them in SQL."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    Uuid,
)

from api.core.models import UTCDateTime, metadata

# A won game's fair-play review: a job one process claims, then its ``verdict`` (``clean``,
# ``flagged``), ``evidence`` (JSON) and a moderator's ``decision`` (``cleared``,
# ``confirmed``). ``player`` to ``challenge_date`` are copied from the game, so that the
# verdict boards it without reading the game again.
fairplay_reviews = Table(
    "fairplay_reviews",
    metadata,
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("player", String(32), nullable=False),
    Column("player_id", Uuid),
    Column("score", SmallInteger, nullable=False),
    Column("placements", SmallInteger, nullable=False),
    Column("finished_at", UTCDateTime, nullable=False),
    Column("challenge_date", Date),
    Column("state", String(16), nullable=False),
    Column("verdict", String(16)),
    Column("evidence", Text),
    Column("decision", String(16)),
    Column("claimed_by", String(100)),
    Column("heartbeat_at", UTCDateTime),
    Column("attempts", SmallInteger, nullable=False),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("reviewed_at", UTCDateTime),
    Index("ix_fairplay_reviews_state_requested_at", "state", "requested_at"),
    Index("ix_fairplay_reviews_player_id", "player_id"),
)

# An account marked by the fair-play review: its games are off the public boards while
# ``state`` is ``marked`` or ``confirmed``, back once ``cleared`` by a moderator.
fairplay_accounts = Table(
    "fairplay_accounts",
    metadata,
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("state", String(16), nullable=False),
    Column("flagged", SmallInteger, nullable=False),  # flagged wins when it was marked
    Column("marked_at", UTCDateTime, nullable=False),
    Column("decided_at", UTCDateTime),
)

# Every moderator's decision: who, when, on what (a game or an account) and which.
fairplay_decisions = Table(
    "fairplay_decisions",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True),
    Column("subject", String(48), nullable=False),  # game:<id> or player:<id>
    Column("action", String(16), nullable=False),
    Column("moderator", String(32), nullable=False),
    Column("note", String(500)),
    Column("decided_at", UTCDateTime, nullable=False),
    Index("ix_fairplay_decisions_subject", "subject", "decided_at"),
)
