"""Real server processes for tests and benchmarks (started and stopped by
:mod:`testkit.processes`): the service's own ``foursquare serve`` (gunicorn and its uvicorn
workers), or ``uvicorn --factory APP_FACTORY`` for an app the benchmarks build."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from testkit.processes import (
    free_port,
    kill_group,
    process_tree,
    stop_group,
    temporary_log,
    wait_until_ready,
)

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Server:
    """A server process group listening on 127.0.0.1: ``foursquare serve``, or with an
    ``app_factory`` ``uvicorn --factory app_factory``.

    It logs to ``log_path`` (kept), or without one to a temporary file that :meth:`stop`
    removes; a failed start says how the log ends. ``migrate_on_start=False`` tells the app
    not to apply the migrations (a database migrated beforehand). ``checkout`` serves another
    checkout's code (a "before" to compare with): on ``PYTHONPATH`` ahead of this virtualenv's
    editable install.
    """

    database_url: str
    port: int = field(default_factory=free_port)
    workers: int = 1
    extra_env: dict[str, str] = field(default_factory=dict)
    log_path: Path | None = None
    log_level: str = "warning"
    access_log: bool = False  # one line per request (at info: set log_level too)
    app_factory: str | None = None
    migrate_on_start: bool = True
    checkout: Path = ROOT
    # RLIMIT_NOFILE (soft and hard) of the server's processes; None: this process's.
    open_files: int | None = None
    process: subprocess.Popen[bytes] | None = None
    _temporary_log: Path | None = field(default=None, init=False, repr=False)

    @property
    def host(self) -> str:
        return "127.0.0.1"

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def log(self) -> Path | None:
        """Where the server logs: ``log_path``, or the temporary file while it runs."""
        return self.log_path or self._temporary_log

    def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "FOURSQUARE_DATABASE_URL": self.database_url,
            **({} if self.migrate_on_start else {"FOURSQUARE_MIGRATE_ON_START": "false"}),
            "PYTHONPATH": str(self.checkout),
            **self.extra_env,
        }
        runner = (
            ["uvicorn", "--factory", self.app_factory] if self.app_factory else ["api.cli", "serve"]
        )
        command = [
            sys.executable, "-m", *runner,
            "--host", self.host, "--port", str(self.port), "--workers", str(self.workers),
            "--log-level", self.log_level,
            *([] if self.access_log else ["--no-access-log"]),
        ]  # fmt: skip
        if self.log_path is None and self._temporary_log is None:
            self._temporary_log = temporary_log("foursquare-server-")
        limit = self.open_files
        with open(self.log or os.devnull, "ab") as log:  # the process keeps its own copy
            self.process = subprocess.Popen(
                command, cwd=self.checkout, env=env, stdout=log, stderr=log,
                start_new_session=True,
                preexec_fn=(
                    None
                    if limit is None
                    else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
                ),
            )  # fmt: skip
        wait_until_ready(
            self.process,
            f"{self.base_url}/readyz",
            timeout=timeout,
            name="the server",
            log_tail=self.log_tail,
        )

    def log_tail(self, lines: int = 40) -> str:
        """The end of the server's log, so that a failed start says why."""
        if self.log is None or not self.log.exists():
            return "(no log kept)"
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash would."""
        if self.process:
            kill_group(self.process)

    def stop(self) -> str:
        """Stop the process group; return what it logged (its last 10,000 lines: warnings and
        errors, at the default level), and remove a temporary log."""
        if self.process:
            stop_group(self.process)
        log = self.log_tail(lines=10_000) if self.log is not None and self.log.exists() else ""
        if self._temporary_log is not None:
            self._temporary_log.unlink(missing_ok=True)
            self._temporary_log = None
        return log

    def pid(self) -> int:
        assert self.process is not None, "the server is not running"
        return self.process.pid

    def pids(self) -> list[int]:
        """The server's process and all its descendants (workers, their pools)."""
        return process_tree(self.pid())


@contextmanager
def running_server(database_url: str, **options: object) -> Iterator[Server]:
    """A started :class:`Server` (``options`` are its fields), stopped at the end; what it
    logged (warnings and errors, at the default level) then goes to stderr."""
    server = Server(database_url, **options)  # type: ignore[arg-type]
    server.start()
    try:
        yield server
    finally:
        log = server.stop()
        if log.strip():
            print(f"--- server log (the end) ---\n{log[-4000:]}", file=sys.stderr)
