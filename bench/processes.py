"""Starting and stopping the processes that benchmarks run beside them: a server
(``foursquare serve`` or ``uvicorn --factory``), each in its own process group.

"Ready" means the process is still alive and ``GET <url>`` answered 200. The tests keep their
own copy (``tests/support/processes.py``): ``bench/`` and ``tests/`` import nothing from each
other, so that either can change without the other.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable


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
        time.sleep(0.1)
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


def unwind_on_sigterm() -> None:
    """SIGTERM (a timeout, a test giving up, a person's kill) unwinds like an error, through
    every ``finally``: the servers a benchmark started are stopped and its databases dropped,
    not left running beside the next measurement (Python's default dies on the spot)."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
