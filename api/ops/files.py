"""Open files: how many event streams a process can hold without running out of them.

Every event stream holds one socket, for as long as its client stays. With the common soft
limit of 1,024 open files and FOURSQUARE_EVENTS_MAX_STREAMS at 2,000, a worker ran out of
descriptors at 988 streams: connections past that were reset instead of answered 503 (accept
fails with EMFILE, and the kernel drops what waits in the backlog), ``/readyz`` failed too, and
nothing was logged. So each process, as its app starts:

- raises its soft ``RLIMIT_NOFILE`` to its hard limit (:func:`raise_open_file_limit`): the
  soft limit is a default for programs that never need more, the hard one what the
  administrator allows; an unprivileged process may raise the first up to the second;
- admits no more streams than leave room, under the soft limit, for the descriptors it holds
  already (the listening socket, logs, its libraries'), its database pools at their fullest,
  and ``FOURSQUARE_EVENTS_RESERVED_FILES`` more for everything else (ordinary requests'
  connections, the pipes of its hint and analysis workers) (:func:`stream_capacity`). The
  hub refuses streams past it with 503 and Retry-After, as past the configured cap;
- admits no more open connections of any kind than leave, under the same soft limit,
  :data:`FILES_BESIDE_CONNECTIONS` of that reserve for what is not a connection (the hint
  and analysis workers' pipes, files opened on demand) (:attr:`StreamCapacity.connections`,
  enforced by api/ops/http_limits.py). Streams are connections too: when they are all
  taken, ``FOURSQUARE_EVENTS_RESERVED_FILES`` less these remain for ordinary requests, and
  one client address holds at most ``FOURSQUARE_MAX_CONNECTIONS_PER_CLIENT`` of them. Without
  this cap, 1,000 idle half-open connections from one address took every descriptor of a
  process limited to 1,024, and its ``/healthz`` was reset until they timed out.
"""

from __future__ import annotations

import contextlib
import resource
from dataclasses import dataclass

import psutil

from api.core.database import Database
from api.core.settings import CoreSettings

# Descriptors one pooled database connection holds: a socket to PostgreSQL; SQLite in WAL
# mode opens the database, its ``-wal`` and its ``-shm`` files.
FILES_PER_CONNECTION = {"postgresql": 1, "sqlite": 3}
# Of FOURSQUARE_EVENTS_RESERVED_FILES, the descriptors no client connection may take: a hint
# pool's or an analysis runner's worker holds a few pipes each (its call and result queues,
# its sentinel), and files are opened on demand (SQLite's temporary files, a log reopened).
FILES_BESIDE_CONNECTIONS = 50


def raise_open_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit, where it may (an
    unlimited hard limit cannot always be the soft one: the kernel's ``nr_open`` caps it);
    the soft limit in force afterwards."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        # Not allowed here (a sandbox, or a hard limit above nr_open): the soft one stays.
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def database_files(database: Database, settings: CoreSettings) -> int:
    """The descriptors the database's pools hold at their fullest (and, on PostgreSQL, the
    connection that LISTENs for other replicas' changes)."""
    reads = settings.db_pool_size
    if database.is_sqlite:
        # The reads' pool, and the one connection that writes.
        return FILES_PER_CONNECTION["sqlite"] * (reads + 1)
    # The requests' reads' and writes' pools, the tools' (one kept, as many as the reads' at
    # most beside it: api/core/database.py), and the LISTEN connection.
    tools = 1 + reads
    return FILES_PER_CONNECTION["postgresql"] * (reads + database.concurrent_writes + tools + 1)


@dataclass(frozen=True)
class StreamCapacity:
    """How many event streams this process admits, and what that was worked out from."""

    streams: int
    configured: int
    soft_limit: int
    open_now: int
    database: int
    reserved: int
    # Open connections of any kind (streams included) this process admits; None: no limit
    # (an unlimited open-file limit).
    connections: int | None = None

    @property
    def limited_by_files(self) -> bool:
        return self.streams < self.configured

    def describe(self) -> str:
        return (
            f"event streams: at most {self.streams} in this process (configured "
            f"{self.configured}; open-file limit {self.soft_limit}, of which {self.open_now} "
            f"open at start, {self.database} for the database pools and {self.reserved} "
            "reserved for requests and workers); open connections: at most "
            f"{'any number' if self.connections is None else self.connections}"
        )


def stream_capacity(
    settings: CoreSettings, database: Database, *, configured: int, reserved: int
) -> StreamCapacity:
    """The streams this process may hold (after :func:`raise_open_file_limit`): at most
    ``configured``, with ``reserved`` files kept for everything else (the events' settings,
    which the app passes: this package is below the features)."""
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    open_now = psutil.Process().num_fds()
    pools = database_files(database, settings)
    if soft == resource.RLIM_INFINITY:
        return StreamCapacity(configured, configured, soft, open_now, pools, reserved, None)
    room = soft - open_now - pools
    streams = max(0, min(configured, room - reserved))
    connections = max(1, room - min(reserved, FILES_BESIDE_CONNECTIONS))
    return StreamCapacity(streams, configured, soft, open_now, pools, reserved, connections)
