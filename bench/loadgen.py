"""The load generator's clients and latency statistics.

One process drives every simulated client as a coroutine with its own connection
(:class:`testkit.http.HttpConnection`, a minimal HTTP/1.1 keep-alive client), on uvloop when
it is installed (it comes with ``uvicorn[standard]``). The client is far cheaper than the
server per request, so on a small machine it does not steal the CPU it is measuring.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from testkit.http import ConnectionLost, HttpConnection, Response

T = TypeVar("T")
CLIENT_DESCRIPTION = "pure-Python asyncio HTTP/1.1 keep-alive client, one process"


# ---------------------------------------------------------------- statistics


def percentile(sorted_values: list[int], fraction: float) -> int:
    """Nearest-rank percentile of already sorted values (0 for none)."""
    if not sorted_values:
        return 0
    rank = max(1, min(len(sorted_values), round(fraction * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


@dataclass
class EndpointStats:
    """Latencies (ns) and outcomes of one endpoint within one phase."""

    latencies_ns: list[int] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    connection_errors: int = 0

    @property
    def count(self) -> int:
        return len(self.latencies_ns)

    def errors(self) -> dict[str, int]:
        """Non-2xx answers by status, plus broken connections."""
        found = {str(s): n for s, n in sorted(self.statuses.items()) if not 200 <= s < 300}
        if self.connection_errors:
            found["connection"] = self.connection_errors
        return found

    def millis(self, fraction: float) -> float:
        return percentile(sorted(self.latencies_ns), fraction) / 1e6

    def figures(self) -> dict[str, Any]:
        """What ``--json`` reports of the endpoint (latencies in ms)."""
        ordered = sorted(self.latencies_ns)
        return {
            "count": self.count,
            "errors": self.errors(),
            "p50_ms": percentile(ordered, 0.5) / 1e6 if ordered else None,
            "p99_ms": percentile(ordered, 0.99) / 1e6 if ordered else None,
        }


@dataclass
class Recorder:
    """Per-endpoint statistics of one phase; requests started while ``active`` count."""

    endpoints: dict[str, EndpointStats] = field(default_factory=dict)
    active: bool = False
    started: float = 0.0  # perf_counter when recording began
    last_done: float = 0.0  # perf_counter of the last recorded completion

    def start(self) -> None:
        self.active = True
        self.started = time.perf_counter()

    @property
    def seconds(self) -> float:
        return max(self.last_done - self.started, 1e-9)

    def rate(self, label: str) -> float:
        stats = self.endpoints.get(label)
        return stats.count / self.seconds if stats else 0.0

    def figures(self) -> dict[str, dict[str, Any]]:
        """What ``--json`` reports of the phase: each endpoint's figures and rate."""
        return {
            label: {**stats.figures(), "rate": self.rate(label)}
            for label, stats in self.endpoints.items()
        }

    async def call(
        self,
        label: str,
        connection: HttpConnection,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: Iterable[tuple[str, str]] = (),
    ) -> Response | None:
        """Send one request, timing it into ``label`` if recording; None if it broke."""
        recording = self.active
        begin = time.perf_counter_ns()
        try:
            response = await connection.request(method, path, body, headers)
        except ConnectionLost:
            if recording:
                self.endpoints.setdefault(label, EndpointStats()).connection_errors += 1
            return None
        if recording:
            end = time.perf_counter_ns()
            stats = self.endpoints.setdefault(label, EndpointStats())
            stats.latencies_ns.append(end - begin)
            stats.statuses[response.status] += 1
            self.last_done = end / 1e9
        return response


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on uvloop if available, else on the default asyncio loop."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return asyncio.run(main)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(main)


def loop_name() -> str:
    try:
        import uvloop  # noqa: F401
    except ImportError:  # pragma: no cover
        return "asyncio"
    return "uvloop"
