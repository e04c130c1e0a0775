"""The service's one MetaData (Alembic's, with its naming convention), the ``UTCDateTime``
type every feature's tables use, and the tables not yet moved to their owner (issue 52)."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    SmallInteger,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
    Uuid,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back as an aware UTC datetime.

    PostgreSQL keeps ``timestamptz``; SQLite keeps text without a zone, so the zone is put
    back on reading.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


# The one MetaData of the service (Alembic's target): each feature declares its own tables on
# it as SQLAlchemy Core ``Table``s in its ``tables`` module (issue 52: one owner per table);
# the ORM classes below are the tables not yet moved to their owner.
metadata = Base.metadata


class GameRow(Base):
    """One game: its public summary columns and its full engine state (secret deck included)."""

    __tablename__ = "games"
    __table_args__ = (
        # Games in progress untouched since a cutoff, for ``foursquare expire`` (migration 0007).
        Index("ix_games_status_updated_at", "status", "updated_at"),
        # A player's games page, newest first: one range scan per page (migration 0008).
        Index("ix_games_player_games", "player_id", "created_at", "id"),
        # One daily challenge game per player per UTC day (migration 0010); its index is
        # also the range scan of one day's challenge games (counts and board).
        UniqueConstraint("challenge_date", "player_id", name="uq_games_challenge_date"),
    )

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    player: Mapped[str] = mapped_column(String(32))
    token_hash: Mapped[str] = mapped_column(String(64))
    seed: Mapped[str | None] = mapped_column(String(64))  # None for decks chosen by tests
    salt: Mapped[str] = mapped_column(String(64))  # secret until the game ends
    deck_commitment: Mapped[str] = mapped_column(String(64))  # see api.core.secrets
    state: Mapped[str] = mapped_column(Text)  # engine state, JSON (see engine.Game.to_dict)
    version: Mapped[int] = mapped_column(Integer)  # bumped by every change
    status: Mapped[str] = mapped_column(String(16))
    end_reason: Mapped[str | None] = mapped_column(String(32))
    score: Mapped[int | None] = mapped_column(SmallInteger)
    placements_count: Mapped[int] = mapped_column(SmallInteger)
    assisted: Mapped[bool] = mapped_column(Boolean, server_default=false())  # asked for a hint
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The game's snapshot (api.games.snapshot: what anyone may see of it, a storage format),
    # made from ``state`` whenever the row is written, and its format: a snapshot of another
    # format, or none (games stored before migration 0005), is made again when it is read.
    # The columns keep the names they had when they held a rendered response.
    public_json: Mapped[str | None] = mapped_column(Text)
    public_format: Mapped[str | None] = mapped_column(String(32))
    # The account that played the game; NULL for a guest's game (``player`` is then free text
    # that no account's name folds to, see api.core.names).
    player_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="RESTRICT")
    )
    # The UTC day whose daily challenge this game is (api.challenges.service); NULL otherwise.
    challenge_date: Mapped[date | None] = mapped_column(Date)
    # A race's game until its race ends (api.races): its player's only, like a daily
    # challenge game of an open day, so that no racer sees the cards another has drawn.
    sealed: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # The computer player's game (a race's computer racer): never a person's, so on no
    # leaderboard and in no player's figures (migration 0016).
    computer: Mapped[bool] = mapped_column(Boolean, server_default=false())
    # The moment after which the game takes no placement (a race's end): checked by the
    # placement's own guarded UPDATE, so no placement is stored after it (migration 0016).
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The fair-play review's word on a won game without hints (api.fairplay, migration 0018;
    # NULL for other games and older wins): only a NULL, clean or cleared win is on a board.
    review: Mapped[str | None] = mapped_column(String(16))


class PlacementRow(Base):
    """One placement of one game; ``(game_id, number)`` is the key, so a number exists once."""

    __tablename__ = "placements"

    game_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    row: Mapped[int] = mapped_column(SmallInteger)
    col: Mapped[int] = mapped_column(SmallInteger)
    card: Mapped[str] = mapped_column(String(3))
    flipped: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    status_after: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlacementRecord(NamedTuple):
    """One row of ``placements`` without its game id, as the games' store writes it and every
    store that reads placements (the games', the live events') returns it: one shape, so that
    ``api.games.records.placement_out`` renders both."""

    number: int
    row: int
    col: int
    card: str
    flipped: list[dict[str, Any]]
    status_after: str
    created_at: datetime


class ServiceSecretRow(Base):
    """Secrets every process of the service shares, made by migration 0006 (random values), so
    that several processes and replicas agree without configuration. A setting
    (``FOURSQUARE_SECRET_KEY``) takes precedence when given."""

    __tablename__ = "service_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))
