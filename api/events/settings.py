"""The live events' settings (GET /games/{id}/events, GET /events, the games being played)."""

from __future__ import annotations

from pydantic import Field

from api.core.settings import SettingsBase


class EventSettings(SettingsBase):
    """What the live events feature reads."""

    events_heartbeat_seconds: float = Field(
        default=15.0,
        gt=0,
        description="A comment line (`: ping`) on every idle event stream this often, so that "
        "proxies keep it open; each watched game is also re-read this often, so that a lost "
        "notification delays its events by at most this long.",
    )
    events_queue: int = Field(
        default=64,
        ge=1,
        description="Events one watcher may have waiting to be written; a watcher that falls "
        "further behind gets a `reconnect` event and is closed.",
    )
    events_max_streams: int = Field(
        default=2000,
        ge=1,
        description="Event streams one server process holds open; beyond, 503 with Retry-After. "
        "A process admits fewer if its open-file limit leaves no room for them "
        "(api/ops/files.py; the number in force is logged at start and is the "
        "foursquare_event_streams_limit metric).",
    )
    events_reserved_files: int = Field(
        default=200,
        ge=0,
        description="Open files each server process keeps, beyond those it holds at start and "
        "its database pools at their fullest, for everything but event streams (ordinary "
        "requests' connections, hint and analysis workers' pipes): streams are capped at its "
        "open-file limit less all of these.",
    )
    events_max_streams_per_client: int = Field(
        default=20,
        ge=1,
        description="Event streams one client address (as the rate limits see it) holds open "
        "on one process; beyond, 429 with Retry-After.",
    )
    live_moved_within_minutes: float = Field(
        default=10,
        gt=0,
        description="`GET /games?status=in_progress` (the games being played) lists only games "
        "that moved (a placement, a hint, their start) this recently: a game left alone is "
        "no longer being played, though it may be resumed until `abandon_after_hours`.",
    )
