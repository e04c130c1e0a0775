"""Real ``foursquare serve`` processes for tests (started and stopped by
:mod:`tests.support.processes`)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.processes import free_port, kill_group, stop_group, wait_until_ready

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Server:
    """A ``foursquare serve`` process group listening on 127.0.0.1."""

    database_url: str
    port: int = field(default_factory=free_port)
    workers: int = 1
    extra_env: dict[str, str] = field(default_factory=dict)
    log_path: Path | None = None
    log_level: str = "warning"
    access_log: bool = False  # one line per request (at info: set log_level too)
    # RLIMIT_NOFILE (soft and hard) of the server's processes; None: this process's.
    open_files: int | None = None
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> None:
        env = {
            **os.environ,
            "FOURSQUARE_DATABASE_URL": self.database_url,
            "PYTHONPATH": str(ROOT),
            **self.extra_env,
        }
        command = [
            sys.executable, "-m", "api.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--workers", str(self.workers),
            "--log-level", self.log_level,
            *([] if self.access_log else ["--no-access-log"]),
        ]  # fmt: skip
        log = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL  # noqa: SIM115
        limit = self.open_files
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
            preexec_fn=(
                None
                if limit is None
                else lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))
            ),
        )
        wait_until_ready(
            self.process,
            f"{self.base_url}/readyz",
            timeout=timeout,
            name="the server",
            log_tail=self._log_tail,
        )

    def _log_tail(self, lines: int = 40) -> str:
        """The end of the server's log, so that a failed start says why."""
        if self.log_path is None or not self.log_path.exists():
            return "(no log kept)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL the whole process group, as a crash would."""
        if self.process:
            kill_group(self.process)

    def stop(self) -> None:
        if self.process:
            stop_group(self.process)

    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid


@contextmanager
def running_server(database_url: str, **options: object) -> Iterator[Server]:
    server = Server(database_url, **options)  # type: ignore[arg-type]
    server.start()
    try:
        yield server
    finally:
        server.stop()
