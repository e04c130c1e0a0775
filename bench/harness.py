"""Plumbing shared by the HTTP benchmarks: their options, and what a server's process group
costs (resident memory, CPU time) as psutil reports it. The servers, processes and throwaway
databases themselves are :mod:`testkit`'s, which the tests use too."""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import dataclass

import psutil
from sqlalchemy.engine import make_url

from testkit.databases import ADMIN_URL, postgres_unavailable_reason
from testkit.processes import command_line, cpu_seconds
from testkit.server import Server

# The load generators are one address hammering the service, not what the rate limits are
# for: every bench app and server runs without them (in-process apps and, through the
# environment, servers), unless FOURSQUARE_RATE_LIMIT_ENABLED says otherwise (to measure
# their cost: see the README).
os.environ.setdefault("FOURSQUARE_RATE_LIMIT_ENABLED", "false")

BACKENDS = ("sqlite", "postgresql")
DEFAULT_POSTGRES_ADMIN_URL = os.environ.get("FOURSQUARE_BENCH_POSTGRES_URL", ADMIN_URL)


def backends_of(choice: str, admin_url: str = DEFAULT_POSTGRES_ADMIN_URL) -> list[str]:
    """``sqlite``, ``postgresql`` or ``both`` as a list of backends, leaving PostgreSQL out
    (and saying why) when no server answers at ``admin_url``."""
    backends = list(BACKENDS) if choice == "both" else [choice]
    if "postgresql" in backends:
        reason = postgres_unavailable_reason(admin_url)
        if reason is not None:
            print(f"[postgresql] skipped: {reason}")
            backends.remove("postgresql")
    return backends


def sized_parser(description: str, sizes: list[int]) -> argparse.ArgumentParser:
    """A parser with the options of a benchmark over databases of several numbers of won
    games: ``--backend``, ``--sizes`` (default ``sizes``) and ``--postgres-url``."""
    parser = argparse.ArgumentParser(
        description=description, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument(
        "--sizes",
        type=lambda text: [int(part) for part in text.split(",") if part],
        default=sizes,
        help="comma-separated numbers of won games",
    )
    parser.add_argument("--postgres-url", default=DEFAULT_POSTGRES_ADMIN_URL)
    return parser


# ---------------------------------------------------------------- what a server costs


def postgres_cpu_seconds(database: str) -> float:
    """CPU time of the local PostgreSQL backends serving ``database`` (none for "")."""
    if not database:
        return 0.0
    needle = f" {database} "
    backends = [
        process.info["pid"]
        for process in psutil.process_iter(["pid", "name"])
        if process.info["name"] == "postgres"
    ]
    return cpu_seconds([pid for pid in backends if needle in " ".join(command_line(pid)) + " "])


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine since boot, over all cores."""
    times = psutil.cpu_times()
    idle = times.idle + getattr(times, "iowait", 0.0)
    total = sum(times[:8])
    return total - idle, total


@dataclass(frozen=True)
class CpuSample:
    """CPU clocks at one instant, to be subtracted from a later sample."""

    wall: float
    server: float
    postgres: float
    client: float
    machine_busy: float
    machine_total: float


@dataclass(frozen=True)
class CpuUse:
    """Average use over an interval, in cores (1.0 = one core fully busy)."""

    server: float
    postgres: float
    client: float
    machine: float
    cores: int

    def describe(self) -> str:
        other = max(0.0, self.machine - self.server - self.postgres - self.client)
        return (
            f"CPU in cores: server {self.server:.2f}, postgres {self.postgres:.2f}, "
            f"load client {self.client:.2f}, anything else {other:.2f} "
            f"(machine {self.machine:.2f} of {self.cores})"
        )


def cpu_sample(server: Server, client_cpu: float) -> CpuSample:
    """The CPU clocks of ``server``'s processes, of the PostgreSQL backends serving its
    database, of the load client (``client_cpu``) and of the whole machine, now."""
    url = make_url(server.database_url)
    database = url.database or "" if url.get_backend_name() == "postgresql" else ""
    busy, total = machine_cpu()
    return CpuSample(
        wall=time.perf_counter(),
        server=cpu_seconds(server.pids()),
        postgres=postgres_cpu_seconds(database),
        client=client_cpu,
        machine_busy=busy,
        machine_total=total,
    )


def cpu_use(before: CpuSample, after: CpuSample) -> CpuUse:
    wall = max(after.wall - before.wall, 1e-9)
    cores = os.cpu_count() or 1
    total = max(after.machine_total - before.machine_total, 1e-9)
    return CpuUse(
        server=(after.server - before.server) / wall,
        postgres=(after.postgres - before.postgres) / wall,
        client=(after.client - before.client) / wall,
        machine=cores * (after.machine_busy - before.machine_busy) / total,
        cores=cores,
    )
