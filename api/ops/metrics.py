"""The service's Prometheus metrics (``prometheus_client``), and how they are exposed.

The metrics are module-level objects, unlike the rest of the service (built in the app
factory): ``prometheus_client`` keeps them in a process-wide registry, and in multiprocess
mode each one maps a file of its own in ``PROMETHEUS_MULTIPROC_DIR``. ``foursquare serve``
sets that variable to a fresh directory before any worker starts (api.ops.metrics_files),
so that a scrape of any worker sums the counters of all of them; without it (tests, a single
process), the process's own registry is exposed.

Other modules count through these objects or the small functions below (a rate limiter calls
:func:`rate_limited`); none of them needs to know whether several processes run.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Protocol

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
    start_http_server,
)

from api.ops.metrics_files import MULTIPROC_ENV

# Requests: the route *template* (``/games/{game_id}``), never the raw path, so that the
# number of series stays bounded whatever clients send.
HTTP_REQUESTS = Counter(
    "foursquare_http_requests_total",
    "HTTP requests answered, by method, route template and status.",
    ["method", "route", "status"],
)
HTTP_DURATION = Histogram(
    "foursquare_http_request_duration_seconds",
    "Time from a request's arrival to the end of its response, by method and route template.",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)

# Where a request's time went (api.ops.observer, from api.core.context.RequestContext): the
# waits for a pooled connection and a write turn, and the time in database statements, each
# observed for the requests that had one (a read takes no write turn, /healthz no connection).
HTTP_PHASE = Histogram(
    "foursquare_http_request_phase_seconds",
    "Time a request spent waiting for pooled database connections (phase pool), for write "
    "turns (turn), and in database statements and commits (db), by method and route template.",
    ["phase", "method", "route"],
    buckets=(
        0.0001,
        0.00025,
        0.0005,
        0.001,
        0.0025,
        0.005,
        0.01,
        0.025,
        0.05,
        0.1,
        0.25,
        0.5,
        1.0,
        2.5,
        5.0,
        10.0,
    ),
)

# The game: counted by the game services once what they decided has been committed.
GAMES_CREATED = Counter("foursquare_games_created_total", "Games dealt and stored.")
GAMES_FINISHED = Counter(
    "foursquare_games_finished_total", "Games that ended, by result (won or lost).", ["result"]
)
PLACEMENTS = Counter("foursquare_placements_total", "Placements stored.")
HINT_DURATION = Histogram(
    "foursquare_hint_duration_seconds",
    "Time the computer player spent on each hint (its count is the hints computed).",
    buckets=(0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0, 5.0),
)

# Refusals by a rate limiter; ``scope`` names the limit (e.g. "ip", "game").
RATE_LIMITED = Counter(
    "foursquare_rate_limited_total", "Requests refused by a rate limit, by scope.", ["scope"]
)

# Database pools, sampled by each process (see api.ops.observer.sample_pools). "livesum": the
# sum over the processes alive now, so a restarted worker's last value does not linger.
DB_POOL_CHECKED_OUT = Gauge(
    "foursquare_db_pool_checked_out",
    "Database connections in use, summed over the live processes, by pool.",
    ["pool"],
    multiprocess_mode="livesum",
)
DB_POOL_SIZE = Gauge(
    "foursquare_db_pool_size",
    "Database connections a pool keeps (without overflow), summed over the live processes.",
    ["pool"],
    multiprocess_mode="livesum",
)


# Live events (api/events): streams open now, events written to them, watchers dropped for
# falling behind (their queue full).
EVENT_STREAMS = Gauge(
    "foursquare_event_streams",
    "Server-sent event streams open, summed over the live processes, by stream (game, site).",
    ["stream"],
    multiprocess_mode="livesum",
)
EVENT_STREAMS_LIMIT = Gauge(
    "foursquare_event_streams_limit",
    "Event streams the live processes admit, summed: each process's FOURSQUARE_EVENTS_MAX_STREAMS "
    "or fewer, as its open-file limit allows (api/ops/files.py).",
    multiprocess_mode="livesum",
)
EVENTS_SENT = Counter(
    "foursquare_events_sent_total", "Server-sent events written to watchers, by event.", ["event"]
)
WATCHERS_DROPPED = Counter(
    "foursquare_event_watchers_dropped_total",
    "Watchers closed with a reconnect event because their queue was full (too slow).",
)


def event_streams_limit(streams: int) -> None:
    EVENT_STREAMS_LIMIT.set(streams)


def event_stream_opened(stream: str) -> None:
    EVENT_STREAMS.labels(stream).inc()


def event_stream_closed(stream: str) -> None:
    EVENT_STREAMS.labels(stream).dec()


def event_sent(event: str) -> None:
    EVENTS_SENT.labels(event).inc()


def watcher_dropped() -> None:
    WATCHERS_DROPPED.inc()


def rate_limited(scope: str) -> None:
    """Count one request refused by the rate limit named ``scope``."""
    RATE_LIMITED.labels(scope).inc()


def game_created() -> None:
    GAMES_CREATED.inc()


def card_placed(status: str) -> None:
    """Count a stored placement; ``status`` is the game's after it (in_progress, won, lost)."""
    PLACEMENTS.inc()
    if status != "in_progress":
        GAMES_FINISHED.labels(status).inc()


@contextmanager
def timing_hint() -> Iterator[None]:
    """Observe the duration of the hint computed in this block."""
    started = time.perf_counter()
    try:
        yield
    finally:
        HINT_DURATION.observe(time.perf_counter() - started)


class Pool(Protocol):
    """What the pool gauges read of a SQLAlchemy ``QueuePool``."""

    def checkedout(self) -> int: ...
    def size(self) -> int: ...


def sample_pools(pools: Mapping[str, Pool]) -> None:
    """Set the pool gauges of this process from ``pools`` (name -> pool)."""
    for name, pool in pools.items():
        DB_POOL_CHECKED_OUT.labels(name).set(pool.checkedout())
        DB_POOL_SIZE.labels(name).set(pool.size())


def _registry() -> CollectorRegistry:
    if os.environ.get(MULTIPROC_ENV):
        # A registry of its own each time, as prometheus_client's multiprocess guide says: it
        # reads every process's files when collected.
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return registry
    return REGISTRY


def exposition() -> tuple[bytes, str]:
    """The metrics of every process of this server, in Prometheus's text format, and its
    media type."""
    return generate_latest(_registry()), CONTENT_TYPE_LATEST


def process_exited(pid: int) -> None:
    """Drop the live gauges of a process that is leaving (its counters stay counted)."""
    if os.environ.get(MULTIPROC_ENV):
        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]


def serve_on_port(host: str, port: int) -> None:
    """Serve ``/metrics`` of every worker on ``host:port`` from a daemon thread of the calling
    process (``foursquare serve``'s own, which outlives its workers)."""
    server, thread = start_http_server(port, addr=host, registry=_registry())
    # The thread is a daemon: it ends with the process. Name it for thread dumps.
    thread.name = "foursquare-metrics"
    del server
    assert isinstance(thread, threading.Thread)


# ---------------------------------------------------------------- refused below the app
# What the HTTP protocol refuses before a request reaches the app (api/ops/http_limits.py):
# the app's observer never sees those, so they are counted here. A request refused there (413,
# 431) counts in foursquare_http_requests_total like any other, with the route "unmatched"
# (none was looked up); a connection refused before any request, in its own counter.

CONNECTIONS_REFUSED = Counter(
    "foursquare_connections_refused_total",
    "Connections answered and closed at once because a cap on open connections was reached, "
    "by cap: client (FOURSQUARE_MAX_CONNECTIONS_PER_CLIENT) or total (the process's, below its "
    "open-file limit).",
    ["limit"],
)
CONNECTIONS_LIMIT = Gauge(
    "foursquare_connections_limit",
    "Open connections the live processes admit, summed (api/ops/files.py).",
    multiprocess_mode="livesum",
)


def connections_limit(connections: int) -> None:
    CONNECTIONS_LIMIT.set(connections)


def connection_refused(limit: str) -> None:
    CONNECTIONS_REFUSED.labels(limit).inc()


def request_refused_early(method: str, route: str, status: int) -> None:
    """Count a request the HTTP protocol refused before the app saw it."""
    HTTP_REQUESTS.labels(method, route, str(status)).inc()
