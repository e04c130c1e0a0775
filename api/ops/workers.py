"""The server's worker processes (hints, analyses): started at a lower CPU priority, deaf to
Ctrl-C, and gone as soon as the server process that spawned them is."""

from __future__ import annotations

import os
import signal
import threading
import time

# How much lower a worker's CPU priority is than the server's. Out of the GIL is not enough on
# a small machine: a worker busy for 100 ms still takes a core the server's requests then
# wait for. At +10 the kernel gives the server process ~10 times the worker's share whenever
# both want the same core, so a hint waits for placements, not the other way round.
WORKER_NICENESS = 10
# How often a worker checks that the server process that started it is still there.
PARENT_CHECK_SECONDS = 0.5


def exit_with_parent(parent: int) -> None:
    """Make this worker process exit as soon as ``parent`` (the pid of the process that
    spawned it, passed along: by the time a worker starts its parent may be gone already) has
    died.

    A server process killed with SIGKILL (or dying with its gunicorn master) cannot stop its
    pools, and a worker busy with a minutes-long analysis step, and multiprocessing's
    ``resource_tracker`` (which waits for every holder of its pipe), then lived on as orphans.
    A daemon thread compares ``os.getppid()`` with ``parent`` (an orphan is re-parented, so
    the value changes) and ends the process with ``os._exit``: nothing of the
    job is worth keeping, its analysis claim goes stale and another process takes it over.
    Why polling and not ``prctl(PR_SET_PDEATHSIG)``: no maintained package offers prctl
    (python-prctl was last released in 2020), and the signal fires when the parent *thread*
    that spawned the worker ends, which in a pool is not the process's lifetime; a thread that
    wakes twice a second costs nothing and needs no library (psutil would add nothing to
    ``os.getppid``).
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def start_worker(parent: int) -> None:
    """Worker start-up: a lower CPU priority (see ``WORKER_NICENESS``), no SIGINT (Ctrl-C in
    a terminal reaches the whole process group; the server stops its pool in order), and an
    exit as soon as the server process is gone (:func:`exit_with_parent`)."""
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)
