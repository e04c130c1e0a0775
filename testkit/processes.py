"""Starting, watching and stopping the processes that tests and benchmarks run beside them: a
server (``foursquare serve`` or ``uvicorn --factory``), HAProxy, a PostgreSQL cluster, each in
its own process group.

"Ready" means the same thing for all of them: the process is still alive and ``GET <url>``
answered 200. Processes are read through psutil, not ``/proc``.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import psutil


def free_port() -> int:
    """A port nothing listens on now (the OS picks it), for a server about to start."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_ready(
    process: subprocess.Popen[bytes],
    url: str,
    *,
    timeout: float,
    name: str,
    log_tail: Callable[[], str],
) -> None:
    """Return once ``url`` answers 200. If the process exits first, raise with the end of its
    log (``log_tail()``); if ``timeout`` seconds pass, stop its group and raise."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{log_tail()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.05)
    stop_group(process)
    raise RuntimeError(f"{name} did not answer 200 at {url} in {timeout:g} s:\n{log_tail()}")


def stop_group(process: subprocess.Popen[bytes], *, timeout: float = 20.0) -> None:
    """SIGTERM the process's group (started with ``start_new_session=True``), and SIGKILL it
    if it has not exited within ``timeout`` seconds."""
    if process.poll() is not None:
        return
    os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process)


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the process's whole group, as a crash would, and reap it."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


def temporary_log(prefix: str) -> Path:
    """A new empty file for a process's log, in the system's temporary folder (the caller
    removes it)."""
    handle, name = tempfile.mkstemp(prefix=prefix, suffix=".log")
    os.close(handle)
    return Path(name)


def unwind_on_sigterm() -> None:
    """SIGTERM (a timeout, a test giving up, a person's kill) unwinds like an error, through
    every ``finally``: the servers a benchmark started are stopped and its databases dropped,
    not left running beside the next measurement (Python's default dies on the spot)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))


# ---------------------------------------------------------------- reading processes


def alive(pid: int) -> bool:
    """Running: a zombie (waiting for a parent to reap it) holds no socket and runs nothing."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def children(pid: int, *, recursive: bool = False) -> list[int]:
    """The live processes below ``pid``: its children, or with ``recursive`` every
    descendant (gunicorn's master has uvicorn workers, which have pools of their own)."""
    try:
        found = psutil.Process(pid).children(recursive=recursive)
    except psutil.NoSuchProcess:
        return []
    return [child.pid for child in found if alive(child.pid)]


def process_tree(root: int) -> list[int]:
    """``root`` and all its descendants that are alive now."""
    return [root, *children(root, recursive=True)]


def command_line(pid: int) -> list[str]:
    """The process's arguments ([] once it has gone)."""
    try:
        return psutil.Process(pid).cmdline()
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return []


def _processes(pids: list[int]) -> Iterator[psutil.Process]:
    """The processes of ``pids`` still there (one may end between a listing and a read)."""
    for pid in pids:
        with contextlib.suppress(psutil.NoSuchProcess, psutil.ZombieProcess):
            yield psutil.Process(pid)


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
