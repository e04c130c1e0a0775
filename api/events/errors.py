"""What an event stream is refused with."""

from __future__ import annotations

from api.core.errors import ApiError


class EventStreamsFull(ApiError):
    """This replica holds as many event streams as it may (`FOURSQUARE_EVENTS_MAX_STREAMS`):
    another replica, or this one after `Retry-After` seconds, takes the watcher."""

    status, code, title = 503, "event_streams_full", "Event streams full"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class TooManyEventStreams(ApiError):
    """This client address holds `FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT` streams on this
    replica already: retry after `Retry-After` seconds."""

    status, code, title = 429, "too_many_event_streams", "Too many event streams"
    answer_headers = ("Retry-After",)

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail, headers={"Retry-After": str(retry_after)})


class InvalidLastEventId(ApiError):
    """A `Last-Event-ID` that is no placement number (0 to 40)."""

    status, code, title = 422, "invalid_last_event_id", "Invalid Last-Event-ID"
