"""HAProxy in front of ``foursquare serve`` replicas, run with the shipped configuration.

The proxy runs ``deploy/haproxy.cfg`` itself (the file docker-compose.yml's ``replicas``
profile mounts), in the foreground, with the addresses it reads from the environment pointed
at the test's servers and a free port. Its log (one line per request, naming the replica that
served it) is how a test sees that requests reached every replica: the replicas themselves
keep no access log and add no header saying who they are.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.support.server import ROOT, Server, free_port

CONFIG = ROOT / "deploy" / "haproxy.cfg"
# The replicas' names in deploy/haproxy.cfg, in the order of FOURSQUARE_REPLICA_1, _2.
REPLICAS = ("replica1", "replica2")
# "... api replicas/replica1 0/0/0/3/3 201 ..." (option httplog): frontend, backend/server.
_SERVED_BY = re.compile(r" api replicas/(\S+) ")


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


@dataclass
class Proxy:
    """One HAProxy process balancing round-robin over two replicas."""

    replicas: list[Server]
    log_path: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> None:
        binary = haproxy_binary()
        assert binary is not None, "haproxy is not installed"
        assert len(self.replicas) == len(REPLICAS), "deploy/haproxy.cfg names two replicas"
        env = {
            **os.environ,
            "FOURSQUARE_PROXY_BIND": f"127.0.0.1:{self.port}",
            **{
                f"FOURSQUARE_REPLICA_{i}": f"127.0.0.1:{server.port}"
                for i, server in enumerate(self.replicas, start=1)
            },
        }
        log = open(self.log_path, "ab")  # noqa: SIM115 (the process keeps it)
        # -db: stay in the foreground, no daemon; the test owns the process.
        self.process = subprocess.Popen(
            [binary, "-db", "-f", str(CONFIG)], env=env, stdout=log, stderr=log
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(
                    f"haproxy exited with {self.process.returncode}: {self.log_path.read_text()}"
                )
            try:
                if httpx.get(f"{self.base_url}/readyz", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("haproxy did not pass a request to a ready replica in time")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)

    def requests_by_replica(self) -> Counter[str]:
        """How many requests each replica served, from the proxy's log."""
        served: Counter[str] = Counter()
        for line in self.log_path.read_text(errors="replace").splitlines():
            match = _SERVED_BY.search(line)
            if match:
                served[match.group(1)] += 1
        return served
