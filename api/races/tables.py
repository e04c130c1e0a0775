"""The races' tables: races, their racers and their rare events. Only
:mod:`api.races.store` names them in SQL."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    Uuid,
    false,
)

from api.core.models import UTCDateTime, metadata

# A race: one shared deal for 2 to 8 racers. ``status`` is ``lobby``, ``countdown`` (until
# ``starts_at``, when the racers' games are dealt), ``running`` (until every game has ended or
# ``ends_at``) or ``finished``; ``closed``, a lobby every person left or left idle. ``events``
# numbers its events (``race_events``): the ``UPDATE`` that takes the next number also orders
# the race's writers, and stamps ``active_at``: the time of its last rare event (its opening's
# join, a join, a leave), from which the ticker closes a lobby left idle
# (``FOURSQUARE_RACE_LOBBY_MINUTES``). ``computer_at`` is when the computer racer's next
# placement is due (NULL: none).
races = Table(
    "races",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("seats", SmallInteger, nullable=False),
    Column("time_limit", Integer, nullable=False),  # seconds from the start
    Column("status", String(16), nullable=False),
    Column("deck_commitment", String(64), nullable=False),
    Column("events", Integer, nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
    Column("starts_at", UTCDateTime),
    Column("ends_at", UTCDateTime),
    Column("finished_at", UTCDateTime),
    Column("computer_at", UTCDateTime),
    # The computer racer's level (beginner, good or best), if it races.
    Column("computer_level", String(16)),
    Column("next_race_id", Uuid),
    # Listed among the open races while in its lobby with a free seat (migration 0024); a
    # private race is joined by its link only.
    Column("public", Boolean, nullable=False, server_default=false()),
    # The time of its last rare event (migration 0025; its opening until the first).
    Column("active_at", UTCDateTime, nullable=False),
    Index("ix_races_status", "status"),
    # The open races' list, newest first: one range of the public lobbies.
    Index("ix_races_open", "public", "status", "created_at"),
)

# A racer: an account (``player_id``), a guest (``token_hash``, the SHA-256 of the racer
# token) or the computer; its game once the race has started, its rank once it is over.
race_racers = Table(
    "race_racers",
    metadata,
    Column("race_id", Uuid, ForeignKey("races.id", ondelete="CASCADE"), primary_key=True),
    Column("number", SmallInteger, primary_key=True),
    Column("name", String(32), nullable=False),
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="RESTRICT")),
    Column("token_hash", String(64)),
    Column("computer", Boolean, nullable=False),
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="RESTRICT")),
    Column("rank", SmallInteger),
    Index("ix_race_racers_game_id", "game_id"),
    Index("ix_race_racers_player_id", "player_id"),
)

# A race's events in order, as its stream sends them (``data``: the event's JSON), so that a
# stream resumed with ``Last-Event-ID`` is sent exactly what it missed.
race_events = Table(
    "race_events",
    metadata,
    Column("race_id", Uuid, ForeignKey("races.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("data", Text, nullable=False),
)
