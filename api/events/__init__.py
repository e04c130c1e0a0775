"""Live events: server-sent event streams of a game, of the site, and of any feature that
publishes one (a :class:`Topic`: a race's), and the games being played.

A feature publishes a stream by giving :meth:`EventService.topic_stream` a :class:`Topic` that
reads what the stream holds, announcing each change with :func:`topic_changed` in the
transaction that makes it, and serving it with the HTTP helpers below (:func:`stream_of`,
:func:`client_of`, and :func:`streamed` and :func:`event_kind` for its OpenAPI text)."""

from api.events.announce import subscribe, topic_changed, win_boarded
from api.events.errors import InvalidLastEventId
from api.events.fanout import connect
from api.events.hub import EventHub
from api.events.render import FRAMES
from api.events.routes import (
    STREAM_REFUSALS,
    EventStream,
    client_of,
    event_kind,
    install_event_schemas,
    router,
    stream_of,
    streamed,
)
from api.events.service import EventService
from api.events.settings import EventSettings
from api.events.watchers import Reading, Topic, topic_position

__all__ = [
    "FRAMES",
    "STREAM_REFUSALS",
    "EventHub",
    "EventService",
    "EventSettings",
    "EventStream",
    "InvalidLastEventId",
    "Reading",
    "Topic",
    "client_of",
    "connect",
    "event_kind",
    "install_event_schemas",
    "router",
    "stream_of",
    "streamed",
    "subscribe",
    "topic_changed",
    "topic_position",
    "win_boarded",
]
