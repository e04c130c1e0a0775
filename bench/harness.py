"""Plumbing shared by the HTTP benchmarks: throwaway databases, a real uvicorn process group,
and what that process group costs (resident memory, CPU time) as psutil reports it."""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import psutil
import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from api.core import migrate
from api.core.database import psycopg_conninfo
from bench.processes import free_port, stop_group, wait_until_ready

# The load generators are one address hammering the service, not what the rate limits are
# for: every bench app and server runs without them (in-process apps and, through the
# environment, servers), unless FOURSQUARE_RATE_LIMIT_ENABLED says otherwise (to measure
# their cost: see the README).
os.environ.setdefault("FOURSQUARE_RATE_LIMIT_ENABLED", "false")

ROOT = Path(__file__).resolve().parent.parent
BACKENDS = ("sqlite", "postgresql")
DEFAULT_POSTGRES_ADMIN_URL = os.environ.get(
    "FOURSQUARE_BENCH_POSTGRES_URL",
    os.environ.get(
        "FOURSQUARE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/postgres"
    ),
)


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


# ---------------------------------------------------------------- databases


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


def postgres_unavailable_reason(admin_url: str = DEFAULT_POSTGRES_ADMIN_URL) -> str | None:
    """None if the PostgreSQL server answers, else why not."""
    try:
        with psycopg.connect(
            psycopg_conninfo(admin_url), connect_timeout=3, autocommit=True
        ) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {make_url(admin_url).render_as_string()} does not answer: {exc}"
    return None


def _admin_execute(admin_url: str, statement: sql.Composed) -> None:
    with psycopg.connect(psycopg_conninfo(admin_url), autocommit=True) as conn:
        conn.execute(statement)


@contextmanager
def throwaway_database(backend: str, admin_url: str = DEFAULT_POSTGRES_ADMIN_URL) -> Iterator[str]:
    """A new database with the migrations applied, removed afterwards; yields its URL.

    SQLite: a file in a temporary folder. PostgreSQL: ``fs_bench_<pid>_<random>`` on the
    server of ``admin_url``, dropped with ``WITH (FORCE)`` whatever happens.
    """
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="foursquare-bench-") as folder:
            url = f"sqlite:///{Path(folder) / 'bench.db'}"
            migrate.upgrade(url)
            yield url
        return
    if backend != "postgresql":
        raise ValueError(f"unknown backend {backend!r}")
    name = f"fs_bench_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    _admin_execute(admin_url, sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        url = make_url(admin_url).set(database=name).render_as_string(hide_password=False)
        migrate.upgrade(url)
        yield url
    finally:
        _admin_execute(
            admin_url,
            sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)),
        )


# ---------------------------------------------------------------- processes


def _processes(pids: list[int]) -> Iterator[psutil.Process]:
    """The processes of ``pids`` still there (one may end between a listing and a read)."""
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
            yield psutil.Process(pid)


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants that are alive now."""
    try:
        below = psutil.Process(root).children(recursive=True)
    except psutil.NoSuchProcess:
        return [root]
    return [root, *(child.pid for child in below)]


def rss_bytes(pids: list[int]) -> int:
    """The sum of the resident memory of ``pids``."""
    total = 0
    for process in _processes(pids):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
            total += process.memory_info().rss
    return total


def cpu_seconds(pids: list[int]) -> float:
    """User plus system CPU time of ``pids``, in seconds."""
    total = 0.0
    for process in _processes(pids):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
            times = process.cpu_times()
            total += times.user + times.system
    return total


def command_line(pid: int) -> str:
    """The process's command line, its arguments joined by spaces ("" once it has gone)."""
    for process in _processes([pid]):
        with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
            return " ".join(process.cmdline())
    return ""


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
    return cpu_seconds([pid for pid in backends if needle in command_line(pid) + " "])


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


@dataclass
class ServerProcess:
    """``uvicorn --factory APP_FACTORY`` (or, with no factory, the service's own ``foursquare
    serve``: gunicorn and its uvicorn workers) from ``checkout``, as its own process group on
    127.0.0.1.

    Warnings only, no access log; the migrations are applied beforehand (by
    :func:`throwaway_database`), so the app does not run them (``MIGRATE_ON_START=false``).
    """

    app_factory: str | None
    database_url: str
    workers: int = 1
    port: int = field(default_factory=free_port)
    extra_env: dict[str, str] = field(default_factory=dict)
    # Another checkout's code (a "before" to compare with): on PYTHONPATH ahead of this venv's
    # editable install.
    checkout: Path = ROOT
    process: subprocess.Popen[bytes] | None = None
    _log: Path | None = None

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def postgres_database(self) -> str:
        url = make_url(self.database_url)
        return url.database or "" if url.get_backend_name() == "postgresql" else ""

    def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "FOURSQUARE_DATABASE_URL": self.database_url,
            "FOURSQUARE_MIGRATE_ON_START": "false",
            "PYTHONPATH": str(self.checkout),
            **self.extra_env,
        }
        runner = (
            ["uvicorn", "--factory", self.app_factory] if self.app_factory else ["api.cli", "serve"]
        )
        command = [
            sys.executable, "-m", *runner,
            "--host", self.host, "--port", str(self.port), "--workers", str(self.workers),
            "--log-level", "warning", "--no-access-log",
        ]  # fmt: skip
        handle, name = tempfile.mkstemp(prefix="foursquare-bench-server-", suffix=".log")
        self._log = Path(name)
        self.process = subprocess.Popen(
            command, cwd=self.checkout, env=env, stdout=handle, stderr=handle,
            start_new_session=True,
        )  # fmt: skip
        os.close(handle)
        wait_until_ready(
            self.process,
            f"http://{self.host}:{self.port}/readyz",
            timeout=timeout,
            name="the server",
            log_tail=self.log_tail,
        )

    def stop(self) -> str:
        """Stop the process group; return what the server logged (warnings and errors)."""
        if self.process is not None:
            stop_group(self.process)
        log = self.log_tail(lines=10_000)
        if self._log is not None:
            self._log.unlink(missing_ok=True)
            self._log = None
        return log

    def log_tail(self, lines: int = 40) -> str:
        if self._log is None or not self._log.exists():
            return ""
        return "\n".join(self._log.read_text(errors="replace").splitlines()[-lines:])

    def pids(self) -> list[int]:
        assert self.process is not None, "the server is not running"
        return process_tree(self.process.pid)

    def rss_bytes(self) -> int:
        """Resident memory of the server process and all its children."""
        return rss_bytes(self.pids())

    def cpu_sample(self, client_cpu: float) -> CpuSample:
        busy, total = machine_cpu()
        return CpuSample(
            wall=time.perf_counter(),
            server=cpu_seconds(self.pids()),
            postgres=postgres_cpu_seconds(self.postgres_database),
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


@contextmanager
def running_server(
    app_factory: str,
    database_url: str,
    *,
    workers: int = 1,
    extra_env: dict[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """A started :class:`ServerProcess`; its warnings and errors go to stderr at the end."""
    server = ServerProcess(app_factory, database_url, workers=workers, extra_env=extra_env or {})
    server.start()
    try:
        yield server
    finally:
        log = server.stop()
        if log.strip():
            print(f"--- server log (warnings and errors) ---\n{log[-4000:]}", file=sys.stderr)
