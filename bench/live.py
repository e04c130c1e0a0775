"""What the live benchmarks (``events_load.py``, ``race_load.py``) share: two ``foursquare
serve`` replicas on a fresh PostgreSQL database behind HAProxy run with ``deploy/haproxy.cfg``,
an HTTP client for them, a reader of server-sent events, a percentile, and how busy the
machine was."""

from __future__ import annotations

import gc
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from testkit.databases import throwaway_database
from testkit.proxy import CONFIG, Proxy
from testkit.server import Server


@dataclass
class Event:
    name: str
    id: str | None
    data: str


async def sse_events(response: httpx.Response) -> AsyncIterator[Event]:
    """The events of a ``text/event-stream`` answer, as the HTML standard parses them: fields
    up to a blank line; comments (``: ping``) skipped; ``event`` defaults to "message"."""
    name, event_id, data = "", None, list[str]()
    async for line in response.aiter_lines():
        if line == "":
            if data or name:
                yield Event(name or "message", event_id, "\n".join(data))
            name, event_id, data = "", None, list[str]()
            continue
        if line.startswith(":"):
            continue
        key, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if key == "event":
            name = value
        elif key == "data":
            data.append(value)
        elif key == "id":
            event_id = value


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def http_client(base_url: str) -> httpx.AsyncClient:
    """A client that opens a connection per request (the proxy closes each after its answer)
    and never caps how many are open."""
    return httpx.AsyncClient(
        base_url=base_url,
        timeout=httpx.Timeout(30.0),
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
    )


def quiet_collector() -> None:
    """Keep the garbage collector's full passes out of a short benchmark process: over the
    objects of a thousand streams they held every stream up for 100 ms and more, which showed
    as delivery latency. What is loaded by now is out of its sight, the old generation is not
    collected during the run, and the young one less often."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 10, 1_000_000)


def stream_limits(streams: int) -> dict[str, str]:
    """The replicas' settings for ``streams`` event streams, all from this one address (the
    per-address cap is for the public)."""
    return {
        "FOURSQUARE_EVENTS_MAX_STREAMS_PER_CLIENT": str(max(20, streams + 100)),
        "FOURSQUARE_EVENTS_MAX_STREAMS": str(max(2000, streams + 100)),
    }


def load_average() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (``/proc/loadavg``)."""
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


@contextmanager
def replicas_behind_proxy(
    postgres_url: str, env: dict[str, str], config: Path = CONFIG
) -> Iterator[tuple[Proxy, list[Server]]]:
    """A fresh PostgreSQL database (created, migrated, dropped afterwards), two ``foursquare
    serve`` replicas on it (one worker each, with ``env``, trusting the proxy) and HAProxy in
    front, run with ``config`` (``deploy/haproxy.cfg``, as shipped, unless told); stopped at
    the end, when the end of what the replicas logged goes to stderr."""
    with throwaway_database("postgresql", postgres_url) as url:
        # The replicas trust their proxy, as deployed (docker-compose.yml): its connections
        # carry everybody's, and no per-address cap applies to them.
        env = {"FOURSQUARE_TRUSTED_PROXIES": "127.0.0.1", **env}
        replicas = [Server(url, extra_env=env, migrate_on_start=False) for _ in range(2)]
        proxy = Proxy(replicas, config=config)  # its per-client limits lifted (one address)
        try:
            for replica in replicas:
                replica.start()
            proxy.start()
            ports = f"{replicas[0].port}, {replicas[1].port}"
            print(f"replicas on ports {ports}; HAProxy on {proxy.port}", flush=True)
            yield proxy, replicas
        finally:
            proxy.stop()
            logs = [replica.stop() for replica in replicas]
            for number, log in enumerate(logs, start=1):
                if log.strip():
                    print(f"--- replica {number} log (end) ---\n{log[-3000:]}", file=sys.stderr)
