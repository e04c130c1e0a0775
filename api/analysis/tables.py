"""The analyses' table. Only :mod:`api.analysis.store` names it in SQL."""

from __future__ import annotations

from sqlalchemy import Column, ForeignKey, Index, SmallInteger, String, Table, Text, Uuid

from api.core.models import UTCDateTime, metadata

# A finished game's analysis (``POST /games/{id}/analysis``): a job that one server process
# claims (``claimed_by``, kept alive by ``heartbeat_at``), then its result.
#
# ``state`` is ``queued``, ``running``, ``done`` or ``failed``. A ``running`` job whose
# heartbeat is older than ``FOURSQUARE_ANALYSIS_STALE_SECONDS`` is claimed again by any process
# (its claimer died); ``attempts`` counts the claims. ``result`` is in
# :mod:`api.analysis.result`'s storage format, as JSON, once ``done``. ``claimed_by`` names the
# process that computed it (host, pid and a random tag).
analyses = Table(
    "analyses",
    metadata,
    Column("game_id", Uuid, ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("state", String(16), nullable=False),
    Column("reviewed", SmallInteger, nullable=False),  # placements reviewed so far
    Column("total", SmallInteger, nullable=False),  # placements to review
    Column("result", Text),
    Column("error", String(200)),
    Column("claimed_by", String(100)),
    Column("heartbeat_at", UTCDateTime),
    Column("attempts", SmallInteger, nullable=False),
    Column("requested_at", UTCDateTime, nullable=False),
    Column("started_at", UTCDateTime),
    Column("finished_at", UTCDateTime),
    Index("ix_analyses_state_heartbeat_at", "state", "heartbeat_at"),
)
