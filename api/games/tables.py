"""The games feature's tables: ``games`` and ``placements`` (issue 52: one owner per table).

Only :mod:`api.games.store` names them in SQL; another feature asks the games face
(:mod:`api.games`) for what it needs of them.
"""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    Uuid,
    false,
)

from api.core.models import UTCDateTime, metadata

# One game: its public summary columns and its full engine state (secret deck included).
games = Table(
    "games",
    metadata,
    Column("id", Uuid, primary_key=True),
    Column("player", String(32), nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("seed", String(64)),  # None for decks chosen by tests
    Column("salt", String(64), nullable=False),  # secret until the game ends
    Column("deck_commitment", String(64), nullable=False),  # see api.core.secrets
    Column("state", Text, nullable=False),  # engine state, JSON (see engine.Game.to_dict)
    Column("version", Integer, nullable=False),  # bumped by every change
    Column("status", String(16), nullable=False),
    Column("end_reason", String(32)),
    Column("score", SmallInteger),
    Column("placements_count", SmallInteger, nullable=False),
    # Asked for a hint.
    Column("assisted", Boolean, nullable=False, server_default=false()),
    Column("created_at", UTCDateTime, nullable=False),
    Column("updated_at", UTCDateTime, nullable=False),
    Column("finished_at", UTCDateTime),
    # The game's snapshot (api.games.snapshot: what anyone may see of it, a storage format),
    # made from ``state`` whenever the row is written, and its format: a snapshot of another
    # format, or none (games stored before migration 0005), is made again when it is read.
    # The columns keep the names they had when they held a rendered response.
    Column("public_json", Text),
    Column("public_format", String(32)),
    # The account that played the game; NULL for a guest's game (``player`` is then free text
    # that no account's name folds to, see api.core.names).
    Column("player_id", Uuid, ForeignKey("players.id", ondelete="RESTRICT")),
    # The UTC day whose daily challenge this game is (api.challenges.service); NULL otherwise.
    Column("challenge_date", Date),
    # A race's game until its race ends (api.races): its player's only, like a daily
    # challenge game of an open day, so that no racer sees the cards another has drawn.
    Column("sealed", Boolean, nullable=False, server_default=false()),
    # The computer player's game (a race's computer racer): never a person's, so on no
    # leaderboard and in no player's figures (migration 0016).
    Column("computer", Boolean, nullable=False, server_default=false()),
    # The moment after which the game takes no placement (a race's end): checked by the
    # placement's own guarded UPDATE, so no placement is stored after it (migration 0016).
    Column("deadline", UTCDateTime),
    # The fair-play review's word on a won game without hints (api.fairplay, migration 0018;
    # NULL for other games and older wins): only a NULL, clean or cleared win is on a board.
    Column("review", String(16)),
    # Games in progress untouched since a cutoff, for ``foursquare expire`` (migration 0007).
    Index("ix_games_status_updated_at", "status", "updated_at"),
    # A player's games page, newest first: one range scan per page (migration 0008).
    Index("ix_games_player_games", "player_id", "created_at", "id"),
    # A player's daily challenge days and how each went, for their streaks (migration 0024):
    # one range of a row a day played, read from the index alone on PostgreSQL.
    Index("ix_games_player_challenges", "player_id", "challenge_date", "status"),
    # One daily challenge game per player per UTC day (migration 0010); its index is
    # also the range scan of one day's challenge games (counts and board).
    UniqueConstraint("challenge_date", "player_id", name="uq_games_challenge_date"),
)

# One placement of one game; ``(game_id, number)`` is the key, so a number exists once.
placements = Table(
    "placements",
    metadata,
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", SmallInteger, primary_key=True),
    Column("row", SmallInteger, nullable=False),
    Column("col", SmallInteger, nullable=False),
    Column("card", String(3), nullable=False),
    Column("flipped", JSON, nullable=False),
    Column("status_after", String(16), nullable=False),
    Column("created_at", UTCDateTime, nullable=False),
)
