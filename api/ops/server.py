"""The processes of ``foursquare serve``: a gunicorn master supervising uvicorn workers.

Why gunicorn rather than ``uvicorn.run(workers=N)``: uvicorn's own supervisor left its
workers serving on the port when it was killed with SIGKILL (the next start failed with
"Address already in use"). gunicorn is the supervisor made for the job: it restarts workers
that die or hang (heartbeat ``timeout``), and on SIGTERM it closes its listening sockets,
asks every worker to finish, and waits up to ``graceful_timeout`` for their in-flight
requests. The workers are uvicorn's, through the ``uvicorn-worker`` package, so requests are
served by the same HTTP stack as before (httptools, uvloop, proxy headers, lifespan).

A master killed with SIGKILL cannot tell its workers anything, so each worker watches its
parent: gunicorn's own workers (sync, gthread, its ASGI worker) check ``os.getppid()`` on
every heartbeat and leave when it changes, and :class:`Worker` adds that check to
uvicorn-worker's heartbeat, which lacks it. The worker then leaves as on SIGTERM: it stops
accepting, finishes its in-flight requests and exits, and the port is free once the last
worker has gone. (``prctl(PR_SET_PDEATHSIG)`` would be immediate, but no maintained package
offers it: python-prctl was last released in 2020 and needs libcap headers to build.)

One worker is run the same way as several, so that ``--workers 1`` has the same signals,
the same draining and the same logs as production.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

# Neither package ships type hints.
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]
from uvicorn_worker import UvicornWorker  # type: ignore[import-untyped]

from api.ops.http_limits import head_limited_protocol
from api.ops.settings import OpsSettings

# Seconds a worker has to finish its in-flight requests after SIGTERM before gunicorn
# kills it.
GRACEFUL_TIMEOUT = 30
# How often a worker's heartbeat runs (and so checks its parent): uvicorn runs the
# heartbeat on its once-a-second tick when this much time has passed since the last one.
HEARTBEAT_SECONDS = 0.5


class Worker(UvicornWorker):  # type: ignore[misc]
    """A uvicorn worker that leaves, gracefully, when its gunicorn master has died, or when a
    stop signal it got while booting did not end it."""

    # The client address comes from FOURSQUARE_TRUSTED_PROXIES alone (api/http/ratelimit.py):
    # uvicorn's own X-Forwarded-For handling would trust 127.0.0.1 and rewrite the peer.
    CONFIG_KWARGS = {**UvicornWorker.CONFIG_KWARGS, "proxy_headers": False}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn-worker beats every `timeout` seconds (30 by default): the parent check
        # would then take up to half a minute to notice a dead master.
        self.config.timeout_notify = HEARTBEAT_SECONDS
        # httptools, with a limit on each request head's and body's size and time (why not
        # a setting of uvicorn's: api/ops/http_limits.py).
        # The caps on open connections too (the process's own is set as its app starts).
        self.config.http = head_limited_protocol(OpsSettings())
        self._leaving = False
        self._told_to_stop = False

    def init_signals(self) -> None:
        super().init_signals()
        # uvicorn-worker resets SIGTERM and SIGINT to their defaults, and uvicorn, once it has
        # shut down gracefully, raises the signal it caught again: the worker then died *by*
        # the signal, so nothing ran at its exit (atexit, multiprocessing's finalizers), and
        # the semaphores of its pools' queues were never unregistered: its resource tracker
        # reported "There appear to be 5 leaked semaphore objects". A handler that exits
        # instead (gunicorn's own workers do the same) lets the interpreter finish normally.
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self._exit_normally)

    def _exit_normally(self, _signal: int, _frame: FrameType | None) -> None:
        # Remembered too, for callback_notify: this handler is the one while the app is built
        # (uvicorn's own takes over once it serves), and a SystemExit raised inside a garbage
        # collector's callback (the build ends with gc.collect(), api/app.py) is printed and
        # ignored. The worker then served on, on the port its master had closed, until the
        # master killed it at graceful_timeout, and with it every sibling still draining.
        self._told_to_stop = True
        sys.exit(0)

    def run(self) -> None:
        try:
            super().run()
        finally:
            _end_children()

    async def callback_notify(self) -> None:
        # The first runs as soon as uvicorn serves, then every HEARTBEAT_SECONDS.
        self.notify()
        if (self._told_to_stop or os.getppid() != self.ppid) and not self._leaving:
            self._leaving = True  # a second SIGTERM would make uvicorn skip the draining
            self.log.info("Told to stop, or parent changed, shutting down: %s", self)
            # uvicorn's SIGTERM handler: stop accepting, finish in-flight requests, exit.
            os.kill(os.getpid(), signal.SIGTERM)


def _end_children() -> None:
    """End the worker's own processes still running once its app has stopped (an analysis
    worker in the middle of a step: its job was handed back at shutdown). Python joins a
    process pool's workers before it exits, and a step may take minutes: gunicorn would kill
    the worker first (graceful_timeout), and nothing of its exit would run (see
    :meth:`Worker.init_signals`)."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    for child in children:
        child.join(timeout=10)


class Application(BaseApplication):  # type: ignore[misc]
    """gunicorn configured from ``foursquare serve``'s options, never from a config file,
    GUNICORN_CMD_ARGS or the command line (BaseApplication reads none of them)."""

    def __init__(self, options: dict[str, Any], app_factory: Callable[[], Any]) -> None:
        self.options = options
        self.app_factory = app_factory
        super().__init__()

    def load_config(self) -> None:
        for name, value in self.options.items():
            self.cfg.set(name, value)
        if "control_socket_disable" in self.cfg.settings:
            # gunicorn 27's control socket is one path per user (~/.gunicorn/gunicorn.ctl):
            # several servers on one machine (tests, replicas) would take it from each other,
            # and nothing here uses it.
            self.cfg.set("control_socket_disable", True)

    def load(self) -> Any:
        # Called in each worker after the fork: every worker has its own engines and pools.
        return self.app_factory()


def _child_exit(_server: Any, worker: Any) -> None:
    # A worker that died (or was replaced) must not keep its pool gauges in the sums that
    # /metrics reports (api.metrics; the import is here, in the master, only once the
    # metrics directory is set).
    from api.ops import metrics

    metrics.process_exited(worker.pid)


def serve(
    host: str, port: int, workers: int, log_level: str, app_factory: Callable[[], Any]
) -> None:
    """Serve the app ``app_factory`` makes (in each worker) until SIGTERM or SIGINT
    (gunicorn's master runs in this process)."""
    bind = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    Application(
        {
            "bind": bind,
            "workers": workers,
            "worker_class": f"{Worker.__module__}.{Worker.__qualname__}",
            "graceful_timeout": GRACEFUL_TIMEOUT,
            "keepalive": 5,  # uvicorn's default keep-alive, as before (gunicorn's is 2 s)
            "loglevel": log_level,
            # No access log: it would write whole URLs (query strings too); the app writes
            # one line per request (api/http/observe.py).
            "accesslog": None,
            "errorlog": "-",
            "proc_name": "foursquare",
            "child_exit": _child_exit,
        },
        app_factory,
    ).run()
