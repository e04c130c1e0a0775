"""HAProxy in front of two ``foursquare serve`` replicas, run with the shipped configuration.

The proxy runs ``deploy/haproxy.cfg`` itself (the file docker-compose.yml's ``replicas``
profile mounts), in the foreground, with the addresses it reads from the environment pointed
at the replicas and a free port. Its log (one line per request, naming the replica that
served it) is how a test sees that requests reached every replica: the replicas themselves
keep no access log and add no header saying who they are.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from testkit.processes import free_port, stop_group, temporary_log, wait_until_ready
from testkit.server import ROOT, Server

CONFIG = ROOT / "deploy" / "haproxy.cfg"
# The replicas' names in deploy/haproxy.cfg, in the order of FOURSQUARE_REPLICA_1, _2.
REPLICAS = ("replica1", "replica2")
# The per-client limits of deploy/haproxy.cfg, lifted (see Proxy.per_client_limits).
ONE_ADDRESS_FOR_MANY = {
    "FOURSQUARE_PROXY_CONNECTIONS_PER_CLIENT": "1000000",
    "FOURSQUARE_PROXY_REQUESTS_PER_CLIENT": "1000000000",
}
# "... api replicas/replica1 0/0/0/3/3 201 ..." (option httplog): frontend, backend/server.
_SERVED_BY = re.compile(r" api replicas/(\S+) ")


def haproxy_binary() -> str | None:
    return shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )


@dataclass
class Proxy:
    """One HAProxy process balancing round-robin over two replicas. It logs to ``log_path``
    (kept), or without one to a temporary file that :meth:`stop` removes."""

    replicas: list[Server]
    log_path: Path | None = None
    config: Path = CONFIG
    port: int = field(default_factory=free_port)
    # HAProxy's own Prometheus exporter (deploy/haproxy.cfg, frontend "metrics").
    metrics_port: int = field(default_factory=free_port)
    # The configuration's per-client limits (connections, requests in 10 s per address), or,
    # by default, none: tests and benchmarks are one address that stands for many clients,
    # as the replicas' rate limits are off in them (tests/conftest.py).
    per_client_limits: bool = False
    process: subprocess.Popen[bytes] | None = None
    _temporary_log: Path | None = field(default=None, init=False, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        """Where the proxy logs: ``log_path``, or the temporary file while it runs."""
        if self.log_path is not None:
            return self.log_path
        if self._temporary_log is None:
            self._temporary_log = temporary_log("foursquare-haproxy-")
        return self._temporary_log

    def start(self, timeout: float = 30.0) -> None:
        binary = haproxy_binary()
        assert binary is not None, "haproxy is not installed"
        assert len(self.replicas) == len(REPLICAS), "deploy/haproxy.cfg names two replicas"
        env = {
            **os.environ,
            "FOURSQUARE_PROXY_BIND": f"127.0.0.1:{self.port}",
            "FOURSQUARE_PROXY_METRICS_BIND": f"127.0.0.1:{self.metrics_port}",
            **{
                f"FOURSQUARE_REPLICA_{i}": f"127.0.0.1:{server.port}"
                for i, server in enumerate(self.replicas, start=1)
            },
            **({} if self.per_client_limits else ONE_ADDRESS_FOR_MANY),
        }
        with open(self.log, "ab") as log:  # the process keeps its own copy
            # -db: stay in the foreground, no daemon; the caller owns the process.
            self.process = subprocess.Popen(
                [binary, "-db", "-f", str(self.config)],
                env=env,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        # Ready once it has passed a request to a ready replica.
        wait_until_ready(
            self.process,
            f"{self.base_url}/readyz",
            timeout=timeout,
            name="haproxy",
            log_tail=lambda: self.log.read_text(errors="replace")[-4000:],
        )

    def stop(self) -> None:
        if self.process:
            stop_group(self.process, timeout=10)
        if self._temporary_log is not None:
            self._temporary_log.unlink(missing_ok=True)
            self._temporary_log = None

    def requests_by_replica(self) -> Counter[str]:
        """How many requests each replica served, from the proxy's log."""
        served: Counter[str] = Counter()
        for line in self.log.read_text(errors="replace").splitlines():
            match = _SERVED_BY.search(line)
            if match:
                served[match.group(1)] += 1
        return served
