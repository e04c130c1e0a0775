"""A private PostgreSQL cluster that a test may stop and start at will.

The shared server at 127.0.0.1:5432 serves every other test (and other people's), so a test
that takes the database away starts its own cluster instead: ``initdb`` into a temporary
folder, ``pg_ctl start`` on a free port, and ``stop`` + ``start`` when it wants an outage.
PostgreSQL refuses to run as root, and the tests run as root (CI), so the binaries run as the
``postgres`` OS user (``runuser``); the folder is made outside pytest's ``tmp_path``, which
that user cannot enter.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import psycopg

from api.core.database import psycopg_conninfo
from testkit.processes import free_port

BIN = Path(os.environ.get("FOURSQUARE_TEST_POSTGRES_BIN", "/usr/lib/postgresql/15/bin"))
OS_USER = "postgres"
# Root runs the binaries as the postgres user; anyone else runs them as themselves.
AS_POSTGRES = ("runuser", "-u", OS_USER, "--") if os.geteuid() == 0 else ()


def unavailable_reason() -> str | None:
    """None if a private cluster can be made here, else why not."""
    if not (BIN / "initdb").exists() or not (BIN / "pg_ctl").exists():
        return f"PostgreSQL's initdb and pg_ctl are not in {BIN} (FOURSQUARE_TEST_POSTGRES_BIN)"
    if AS_POSTGRES and shutil.which("runuser") is None:
        return "runuser is missing (PostgreSQL refuses to run as root)"
    if AS_POSTGRES:
        try:
            pwd.getpwnam(OS_USER)
        except KeyError:
            return f"there is no {OS_USER!r} OS user to run PostgreSQL as (it refuses root)"
    return None


@dataclass
class PrivateCluster:
    """One ``initdb``-made cluster on 127.0.0.1:``port``, trust authentication."""

    directory: Path
    port: int

    @property
    def data(self) -> Path:
        return self.directory / "data"

    @property
    def log(self) -> Path:
        return self.directory / "postgres.log"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def _pg_ctl(self, *args: str) -> None:
        self._run(str(BIN / "pg_ctl"), "-D", str(self.data), *args)

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [*AS_POSTGRES, *command],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(command)} failed: {done.stdout}{done.stderr}")

    def init(self) -> None:
        # --no-sync and fsync=off: the tests stop the server, never the machine, so what the
        # server wrote is in the OS's page cache whatever happens to the server.
        self._run(
            str(BIN / "initdb"), "-D", str(self.data), "--auth=trust", "-U", "postgres",
            "--no-sync", "--no-instructions",
        )  # fmt: skip

    def start(self) -> None:
        """Start and wait until it accepts connections (``pg_ctl -w``)."""
        options = (
            f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=100"
        )
        self._pg_ctl("-l", str(self.log), "-o", options, "-w", "-t", "60", "start")

    def stop(self, mode: str = "fast") -> None:
        """``fast``: the server ends every session and shuts down cleanly; ``immediate``:
        it quits at once and replays its WAL on the next start, as after a crash."""
        self._pg_ctl("-m", mode, "-w", "-t", "60", "stop")

    def create_database(self, name: str) -> str:
        with psycopg.connect(psycopg_conninfo(self.url()), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextmanager
def private_cluster() -> Iterator[PrivateCluster]:
    """A started cluster, stopped and removed at the end."""
    directory = Path(tempfile.mkdtemp(prefix="foursquare-pg-"))
    if AS_POSTGRES:
        shutil.chown(directory, OS_USER, OS_USER)
    cluster = PrivateCluster(directory, free_port())
    try:
        cluster.init()
        cluster.start()
        yield cluster
    finally:
        with contextlib.suppress(RuntimeError):  # not running: a test stopped it, or it failed
            cluster.stop("immediate")
        shutil.rmtree(directory, ignore_errors=True)
