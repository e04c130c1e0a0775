"""The fair-play review's tables (api.fairplay), beside :mod:`api.core.models` on its one
metadata: in ``core`` with every other table until tables move to the features that own
them; a module of their own so that neither grows past a reader's page (``api.core.models``
imports this one, so that its metadata has every table)."""

from __future__ import annotations

import uuid
from datetime import date, datetime

from sqlalchemy import (
    BigInteger,
    Date,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    Uuid,
)
from sqlalchemy.orm import Mapped, mapped_column

from api.core.models import Base, UTCDateTime


class FairPlayReviewRow(Base):
    """A won game's fair-play review (api.fairplay): a job one process claims, then its
    ``verdict`` (``clean``, ``flagged``), ``evidence`` (JSON) and a moderator's ``decision``
    (``cleared``, ``confirmed``). ``player`` to ``challenge_date`` are copied from the game,
    so that the verdict boards it without reading the game again."""

    __tablename__ = "fairplay_reviews"
    __table_args__ = (
        Index("ix_fairplay_reviews_state_requested_at", "state", "requested_at"),
        Index("ix_fairplay_reviews_player_id", "player_id"),
    )
    game_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)
    score: Mapped[int] = mapped_column(SmallInteger)
    placements: Mapped[int] = mapped_column(SmallInteger)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
    challenge_date: Mapped[date | None] = mapped_column(Date)
    state: Mapped[str] = mapped_column(String(16))
    verdict: Mapped[str | None] = mapped_column(String(16))
    evidence: Mapped[str | None] = mapped_column(Text)
    decision: Mapped[str | None] = mapped_column(String(16))
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(SmallInteger)
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime)
    reviewed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FairPlayAccountRow(Base):
    """An account marked by the fair-play review: its games are off the public boards while
    ``state`` is ``marked`` or ``confirmed``, back once ``cleared`` by a moderator."""

    __tablename__ = "fairplay_accounts"

    player_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(String(16))
    flagged: Mapped[int] = mapped_column(SmallInteger)  # flagged wins when it was marked
    marked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class FairPlayDecisionRow(Base):
    """Every moderator's decision: who, when, on what (a game or an account) and which."""

    __tablename__ = "fairplay_decisions"
    __table_args__ = (Index("ix_fairplay_decisions_subject", "subject", "decided_at"),)

    id: Mapped[int] = mapped_column(BigInteger().with_variant(Integer, "sqlite"), primary_key=True)
    subject: Mapped[str] = mapped_column(String(48))  # game:<id> or player:<id>
    action: Mapped[str] = mapped_column(String(16))
    moderator: Mapped[str] = mapped_column(String(32))
    note: Mapped[str | None] = mapped_column(String(500))
    decided_at: Mapped[datetime] = mapped_column(UTCDateTime)
