"""SQLAlchemy 2 ORM models: every table of the service (Alembic's metadata). The SQL that uses
them lives in each feature's ``store`` module."""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
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


class PlayerRow(Base):
    """A registered player. ``name`` is the name as registered (after NFKC normalisation);
    ``name_key`` its caseless form (api.core.names.name_key), unique, so that no two
    accounts and no guest can use names that differ only in case or width; ``name_skeleton``
    its look-alike form (api.core.names.name_skeleton, Unicode TS #39), unique, so that no
    two accounts and no guest can use names that look alike. Its keys are
    :class:`PlayerKeyRow` rows (migration 0022 moved the one key an account had into them)."""

    __tablename__ = "players"
    __table_args__ = (Index("ix_players_name_skeleton", "name_skeleton", unique=True),)

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    name_skeleton: Mapped[str] = mapped_column(String(128))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class PlayerKeyRow(Base):
    """One of a player's named keys (one a device), stored only as its SHA-256, like a game's
    token. A key names its row (``fsp.<id hex>.<secret>``, api.core.secrets), so a request
    finds the row by its primary key and compares the hash in constant time; no lookup is
    ever made by a secret. The key an account had before migration 0022 kept its text: its
    row's id is the player's id. ``last_used_at`` is written at most once an hour (a write per
    request would double the statements of every authenticated one).

    ``previous_hash`` is the secret a rotation of this key replaced, still accepted until the
    new secret is first used (then NULL), so that a rotation whose answer was lost strands
    nobody (migration 0020 kept it on ``players`` while an account had one key)."""

    __tablename__ = "player_keys"

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    player_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE"), index=True
    )
    name: Mapped[str] = mapped_column(String(64))
    key_hash: Mapped[str] = mapped_column(String(64))
    previous_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    last_used_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class PlayerStatsRow(Base):
    """A player's all-time figures, updated with atomic ``SET x = x + ...`` statements in the
    transaction that creates or ends one of their games, so they always equal a recount.
    One row per player (a later leaderboard window can key a table like it by period)."""

    __tablename__ = "player_stats"

    player_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True
    )
    games_played: Mapped[int] = mapped_column(Integer)  # started, whatever their status
    games_won: Mapped[int] = mapped_column(Integer)
    games_lost: Mapped[int] = mapped_column(Integer)
    won_score_total: Mapped[int] = mapped_column(Integer)  # for the mean winning score
    best_score: Mapped[int | None] = mapped_column(SmallInteger)
    current_streak: Mapped[int] = mapped_column(Integer)  # wins since the last loss
    longest_streak: Mapped[int] = mapped_column(Integer)
    last_played_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ScoreRow(Base):
    """A won game on the leaderboard.

    ``sort_score`` is ``-score`` so that one ascending index on
    ``(sort_score, finished_at, game_id)`` gives the leaderboard order (best score first,
    earlier finish first, then id) and keyset paging is a single row-value comparison; the
    day and week boards have the same index behind their ``day`` or ``week``.

    The ordinals make a game's rank a sum of a few counters instead of a count of the games
    above it (see :class:`LeaderboardTotalRow`): ``ordinal`` is the game's place among all
    won games of its score in finish order (1 is the earliest), ``ordinal_unassisted`` its
    place among those without hints (NULL for an assisted game), and ``day_ordinal`` and
    ``day_ordinal_unassisted`` the same within its UTC day. ``player_key`` is the player's
    name as look-alike names are compared (:func:`api.core.names.name_skeleton`): one
    player per skeleton on the boards of each player's best game.
    """

    __tablename__ = "scores"
    __table_args__ = (
        Index("ix_scores_leaderboard", "sort_score", "finished_at", "game_id"),
        Index(
            "ix_scores_leaderboard_by_assistance",
            "assisted",
            "sort_score",
            "finished_at",
            "game_id",
        ),
        Index("ix_scores_day", "day", "sort_score", "finished_at", "game_id"),
        Index("ix_scores_week", "week", "sort_score", "finished_at", "game_id"),
    )

    game_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player: Mapped[str] = mapped_column(String(32))
    score: Mapped[int] = mapped_column(SmallInteger)
    sort_score: Mapped[int] = mapped_column(SmallInteger)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
    assisted: Mapped[bool] = mapped_column(Boolean, server_default=false())
    player_key: Mapped[str] = mapped_column(String(128))
    day: Mapped[date] = mapped_column(Date)  # the UTC day of finished_at
    week: Mapped[date] = mapped_column(Date)  # the Monday of finished_at's ISO week
    ordinal: Mapped[int] = mapped_column(BigInteger)
    ordinal_unassisted: Mapped[int | None] = mapped_column(BigInteger)
    day_ordinal: Mapped[int] = mapped_column(Integer)
    day_ordinal_unassisted: Mapped[int | None] = mapped_column(Integer)


class LeaderboardTotalRow(Base):
    """All-time counts of won games by score (one row per score, 0 to 24, made by migration
    0012), and the last ``finished_at`` among them.

    A game's all-time rank is the number of won games with a better score (a sum over at
    most 24 of these rows) plus its ordinal among games of its own score, so it costs the same
    with a million games as with ten. Ending a game with a win locks its score's row, so wins
    of one score are counted, and stamped with a ``finished_at`` later than the last one, one
    at a time: the ordinals follow the leaderboard's order (earlier finish first).
    """

    __tablename__ = "leaderboard_totals"

    score: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    wins: Mapped[int] = mapped_column(BigInteger)
    wins_unassisted: Mapped[int] = mapped_column(BigInteger)
    last_finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class LeaderboardDayRow(Base):
    """Counts of won games by UTC day and score: a rank on a day's board, or on a week's
    (seven days' rows), is a sum of these plus the game's ``day_ordinal``. The key starts
    with the day's ISO week (its Monday), so one week's rows are one range of it."""

    __tablename__ = "leaderboard_days"

    week: Mapped[date] = mapped_column(Date, primary_key=True)
    day: Mapped[date] = mapped_column(Date, primary_key=True)
    score: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    wins: Mapped[int] = mapped_column(Integer)
    wins_unassisted: Mapped[int] = mapped_column(Integer)


class LeaderboardBestRow(Base):
    """Each player's best won game on each board, for ``per_player=best``.

    ``board`` is ``all``, ``day`` or ``week``; ``starts_on`` the board's first day (2000-01-01
    for ``all``); ``with_assisted`` whether assisted games count (the listing with
    ``include_assisted=true``). Kept by the transaction that records a win: an upsert that
    replaces the row only for a better score (a later finish never beats an equal score).
    """

    __tablename__ = "leaderboard_bests"
    __table_args__ = (
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

    board: Mapped[str] = mapped_column(String(8), primary_key=True)
    starts_on: Mapped[date] = mapped_column(Date, primary_key=True)
    with_assisted: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    player_key: Mapped[str] = mapped_column(String(128), primary_key=True)
    game_id: Mapped[uuid.UUID] = mapped_column(Uuid, ForeignKey("games.id", ondelete="CASCADE"))
    player: Mapped[str] = mapped_column(String(32))
    score: Mapped[int] = mapped_column(SmallInteger)
    sort_score: Mapped[int] = mapped_column(SmallInteger)
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
    assisted: Mapped[bool] = mapped_column(Boolean)


class LeaderboardRevisionRow(Base):
    """One row whose ``revision`` the database bumps whenever ``scores`` changes (triggers of
    migration 0004): a cached leaderboard page is current while the number is unchanged."""

    __tablename__ = "leaderboard_revision"

    id: Mapped[int] = mapped_column(SmallInteger, primary_key=True)  # always 1
    revision: Mapped[int] = mapped_column(BigInteger)


class IdempotencyKeyRow(Base):
    """A request made with an ``Idempotency-Key``: claimed while it runs, then its response.

    ``scope`` is ``"games"`` for game creation and ``"game:<id>"`` for placements on a game.
    ``key_hash`` is the SHA-256 of the key (the key itself is never stored). ``claim`` names
    the request that holds the key while it runs: only that request may complete or release
    it, and a stale claim is taken over by replacing it. ``status_code`` is NULL while the
    claiming request is still running. ``response_sealed``: the body is an answer that
    carries a secret, stored encrypted (api/idempotency/sealing.py), not JSON.
    """

    __tablename__ = "idempotency_keys"
    __table_args__ = (Index("ix_idempotency_keys_created_at", "created_at"),)

    scope: Mapped[str] = mapped_column(String(48), primary_key=True)
    key_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    claim: Mapped[str] = mapped_column(String(32))
    fingerprint: Mapped[str] = mapped_column(String(64))
    status_code: Mapped[int | None] = mapped_column(SmallInteger)
    response_body: Mapped[str | None] = mapped_column(Text)
    response_headers: Mapped[dict[str, str] | None] = mapped_column(JSON)
    response_sealed: Mapped[bool] = mapped_column(Boolean, server_default=false())
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    completed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class ServiceSecretRow(Base):
    """Secrets every process of the service shares, made by migration 0006 (random values), so
    that several processes and replicas agree without configuration. A setting
    (``FOURSQUARE_SECRET_KEY``) takes precedence when given."""

    __tablename__ = "service_secrets"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


class AnalysisRow(Base):
    """A finished game's analysis (``POST /games/{id}/analysis``): a job that one server
    process claims (``claimed_by``, kept alive by ``heartbeat_at``), then its result.

    ``state`` is ``queued``, ``running``, ``done`` or ``failed``. A ``running`` job whose
    heartbeat is older than ``FOURSQUARE_ANALYSIS_STALE_SECONDS`` is claimed again by any
    process (its claimer died); ``attempts`` counts the claims. ``result`` is in
    :mod:`api.analysis.result`'s storage format, as JSON, once ``done``. ``claimed_by`` names
    the process that computed it (host, pid and a random tag).
    """

    __tablename__ = "analyses"
    __table_args__ = (Index("ix_analyses_state_heartbeat_at", "state", "heartbeat_at"),)

    game_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    state: Mapped[str] = mapped_column(String(16))
    reviewed: Mapped[int] = mapped_column(SmallInteger)  # placements reviewed so far
    total: Mapped[int] = mapped_column(SmallInteger)  # placements to review
    result: Mapped[str | None] = mapped_column(Text)
    error: Mapped[str | None] = mapped_column(String(200))
    claimed_by: Mapped[str | None] = mapped_column(String(100))
    heartbeat_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(SmallInteger)
    requested_at: Mapped[datetime] = mapped_column(UTCDateTime)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class RaceRow(Base):
    """A race (api.races): one shared deal for 2 to 8 racers. ``status`` is ``lobby``,
    ``countdown`` (until ``starts_at``, when the racers' games are dealt), ``running`` (until
    every game has ended or ``ends_at``) or ``finished``. ``events`` numbers its events
    (``race_events``): the ``UPDATE`` that takes the next number also orders the race's
    writers. ``computer_at`` is when the computer racer's next placement is due (NULL: none)."""

    __tablename__ = "races"
    __table_args__ = (Index("ix_races_status", "status"),)

    id: Mapped[uuid.UUID] = mapped_column(Uuid, primary_key=True)
    seats: Mapped[int] = mapped_column(SmallInteger)
    time_limit: Mapped[int] = mapped_column(Integer)  # seconds from the start
    status: Mapped[str] = mapped_column(String(16))
    deck_commitment: Mapped[str] = mapped_column(String(64))
    events: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    starts_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    computer_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # The computer racer's level (api.races: beginner, good or best), if it races.
    computer_level: Mapped[str | None] = mapped_column(String(16))
    next_race_id: Mapped[uuid.UUID | None] = mapped_column(Uuid)


class RacerRow(Base):
    """A racer: an account (``player_id``), a guest (``token_hash``, the SHA-256 of the racer
    token) or the computer; its game once the race has started, its rank once it is over."""

    __tablename__ = "race_racers"
    __table_args__ = (
        Index("ix_race_racers_game_id", "game_id"),
        Index("ix_race_racers_player_id", "player_id"),
    )

    race_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("races.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(SmallInteger, primary_key=True)
    name: Mapped[str] = mapped_column(String(32))
    player_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("players.id", ondelete="RESTRICT")
    )
    token_hash: Mapped[str | None] = mapped_column(String(64))
    computer: Mapped[bool] = mapped_column(Boolean)
    game_id: Mapped[uuid.UUID | None] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="RESTRICT")
    )
    rank: Mapped[int | None] = mapped_column(SmallInteger)


class RaceEventRow(Base):
    """A race's events in order, as its stream sends them (``data``: the event's JSON), so
    that a stream resumed with ``Last-Event-ID`` is sent exactly what it missed."""

    __tablename__ = "race_events"

    race_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("races.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)


class HeldWinRow(Base):
    """A won game the fair-play review keeps off the boards (pending, flagged, its account
    marked), counted in their captions; ``day`` and ``week`` are its finish's."""

    __tablename__ = "leaderboard_held"
    __table_args__ = (
        Index("ix_leaderboard_held_day", "day"),
        Index("ix_leaderboard_held_week", "week"),
    )

    game_id: Mapped[uuid.UUID] = mapped_column(
        Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    day: Mapped[date] = mapped_column(Date)
    week: Mapped[date] = mapped_column(Date)


# The fair-play tables and the credentials' (recovery codes, passkeys), declared in modules of
# their own, are on this metadata for whoever imports this one (Alembic, the tests comparing
# it with the migrations). Last: they need Base, which is defined above.
from api.core import credential_models as _credential_models  # noqa: E402, F401
from api.core import fairplay_models as _fairplay_models  # noqa: E402, F401
