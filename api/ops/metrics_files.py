"""What ``foursquare serve`` sets up around its worker processes for metrics.

prometheus_client chooses where metrics live when it is first imported: in memory, or (with
``PROMETHEUS_MULTIPROC_DIR`` set) in files that every process of the server writes and any
of them reads at a scrape. So the directory is made here, in the process that starts the
workers, before anything imports prometheus_client, and the workers inherit it. This module
imports no metrics itself for that reason.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from api.ops.settings import OpsSettings

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


@contextmanager
def multiprocess_dir() -> Iterator[str]:
    """Point ``PROMETHEUS_MULTIPROC_DIR`` at a fresh directory while the block runs (the
    server's lifetime), then delete it: each server start counts from zero, and no file of an
    earlier run's processes is ever summed in. The variable is restored afterwards.

    Deleted only by the process that made it: a gunicorn worker is a fork of the master that
    leaves with ``sys.exit`` from inside the master's call stack, so its exit unwinds this
    block too (a ``TemporaryDirectory`` deleted the directory under the master and the other
    workers)."""
    if "prometheus_client" in sys.modules:
        raise RuntimeError("prometheus_client was imported before its directory was chosen")
    before = os.environ.get(MULTIPROC_ENV)
    owner = os.getpid()
    directory = tempfile.mkdtemp(prefix="foursquare-metrics-")
    os.environ[MULTIPROC_ENV] = directory
    try:
        yield directory
    finally:
        if os.getpid() == owner:
            shutil.rmtree(directory, ignore_errors=True)
            if before is None:
                os.environ.pop(MULTIPROC_ENV, None)
            else:
                os.environ[MULTIPROC_ENV] = before


@contextmanager
def serving_metrics(settings: OpsSettings, host: str) -> Iterator[None]:
    """Around a server's run: the shared metrics directory, and ``/metrics`` on
    ``settings.metrics_port`` (on ``host``) if one is set, served by this process."""
    if not settings.metrics:
        yield
        return
    with multiprocess_dir():
        if settings.metrics_port is not None:
            from api.ops import metrics  # only now that the directory is set

            metrics.serve_on_port(host, settings.metrics_port)
        yield
