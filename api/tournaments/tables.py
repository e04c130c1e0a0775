"""The tournaments' tables: tournaments, their committed deals, their entrants, the games the
entrants play, their rare events, and the operators' schedules. Only
:mod:`api.tournaments.store` names them in SQL.

A tournament is *duplicate*: every entrant plays the same deals, in order, each once. A deal
is a pure function of the service's secret and ``tournament:<id>:<number>``
(:func:`api.core.days.shared_deal`), so only its commitment is stored; the deck and salt are
computed again to reveal them when the tournament ends.
"""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    func,
)

from api.core.models import UTCDateTime, metadata

# An operator's recurring tournament: ``cron`` (a cron expression, UTC) says when each one
# starts; each lasts ``duration`` seconds and is announced ``announce_ahead`` seconds before
# its start. ``cancelled_at``: no more are announced from then on.
tournament_schedules = Table(
    "tournament_schedules",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("cron", String(128), nullable=False),
    Column("duration", Integer, nullable=False),  # seconds
    Column("deals", SmallInteger, nullable=False),
    Column("guests", Boolean, nullable=False),
    Column("max_entrants", Integer),
    Column("announce_ahead", Integer, nullable=False),  # seconds before each start
    Column("created_at", UTCDateTime, nullable=False),
    Column("cancelled_at", UTCDateTime),
)

# A tournament. ``status`` is ``announced`` (until ``starts_at``), ``running`` (until
# ``ends_at``), ``ending`` (time is up; its wins await the fair-play review before the final
# standings), ``finished`` or ``cancelled`` (by an operator, before its start). ``entrants``
# counts the entries (the cap's check, under the row's lock); ``events`` numbers its events
# (``tournament_events``), as a race's do. One occurrence of a schedule is one tournament: the
# unique (schedule, start) is how one database decides among replicas that each announce it.
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("starts_at", UTCDateTime, nullable=False),
    Column("ends_at", UTCDateTime, nullable=False),
    Column("deals", SmallInteger, nullable=False),
    Column("guests", Boolean, nullable=False),
    Column("max_entrants", Integer),
    Column("entrants", Integer, nullable=False),
    Column("events", Integer, nullable=False),
    Column("schedule_id", Uuid, ForeignKey("tournament_schedules.id", ondelete="SET NULL")),
    Column("created_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    Column("cancelled_at", UTCDateTime),
    UniqueConstraint("schedule_id", "starts_at", name="uq_tournaments_schedule_start"),
    Index("ix_tournaments_status_starts_at", "status", "starts_at"),
)

# A tournament's deals, numbered from 1, each with its commitment (published from the
# announcement on).
tournament_deals = Table(
    "tournament_deals",
    metadata,
    Column(
        "tournament_id",
        Uuid,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("number", SmallInteger, primary_key=True),
    Column("commitment", String(64), nullable=False),
)

# An entrant: an account (``player_id``) or a guest (``token_hash``, the SHA-256 of its
# token). ``deals_played``, ``score`` (the sum of its deals' scores, a lost deal 0), ``cards``
# (cards placed in its finished deals) and ``finished_at`` (when its last finished deal
# ended) are its standing, kept with each deal's end; the final standings write ``score``
# again without the wins the fair-play review flagged, and ``place``. Standings order: score
# descending, cards descending, finished_at ascending (none last), number ascending.
tournament_entrants = Table(
    "tournament_entrants",
    metadata,
    Column(
        "tournament_id",
        Uuid,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("number", Integer, primary_key=True),
    Column("name", String(32), nullable=False),
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="RESTRICT")),
    Column("token_hash", String(64)),
    Column("joined_at", UTCDateTime, nullable=False),
    Column("left_at", UTCDateTime),
    Column("deals_played", SmallInteger, nullable=False),
    Column("score", Integer, nullable=False),
    Column("cards", Integer, nullable=False),
    Column("finished_at", UTCDateTime),
    Column("place", Integer),
    UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entrants_player"),
    Index("ix_tournament_entrants_player_id", "player_id"),
)
# The standings' order, so that a page of them (and a rank: how many are ahead) is a range of
# this index.
Index(
    "ix_tournament_entrants_standing",
    tournament_entrants.c.tournament_id,
    tournament_entrants.c.score.desc(),
    tournament_entrants.c.cards.desc(),
    tournament_entrants.c.finished_at,
    tournament_entrants.c.number,
)
# An entrant by its name in any case (the standings `around` a name): names are stored as
# their players typed them, so the index is of lower(name).
Index(
    "ix_tournament_entrants_name",
    tournament_entrants.c.tournament_id,
    func.lower(tournament_entrants.c.name),
)

# The game an entrant plays of a deal: the primary key is why a deal is played once.
tournament_games = Table(
    "tournament_games",
    metadata,
    Column("tournament_id", Uuid, primary_key=True),
    Column("entrant", Integer, primary_key=True),
    Column("deal", SmallInteger, primary_key=True),
    Column(
        "game_id",
        Uuid,
        ForeignKey("games.id", ondelete="RESTRICT"),
        nullable=False,
        unique=True,
    ),
    ForeignKeyConstraint(
        ["tournament_id", "entrant"],
        ["tournament_entrants.tournament_id", "tournament_entrants.number"],
        ondelete="CASCADE",
    ),
)

# A tournament's events in order, as its stream sends them (``data``: the event's JSON), so
# that a stream resumed with ``Last-Event-ID`` is sent exactly what it missed.
tournament_events = Table(
    "tournament_events",
    metadata,
    Column(
        "tournament_id",
        Uuid,
        ForeignKey("tournaments.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("number", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)
