"""The computer player's advice, computed in worker processes with a bounded queue.

A hint costs ~100 ms of pure-Python CPU. Run in the server process (even on a thread) it
holds the GIL for that long, so a few clients asking for hints slowed every other request.
Here it runs in a :class:`~concurrent.futures.ProcessPoolExecutor`; the server process only
pickles the question (~400 bytes) and the answer.

Why ``spawn`` and not ``fork`` or ``forkserver``: the server process holds database
connections, an event loop and threads (the database's, anyio's), and forking a process with
threads copies locks that may be held and sockets that both processes would then use. A
spawned worker is a fresh interpreter that inherits none of it. ``forkserver`` is as safe,
but its fork server is one process per server process that outlives the pool (it stays until
the server exits), so shutting the pool down would not leave the server without children;
spawn's extra start-up cost (a fresh interpreter, under a second) is paid once per worker, at
its first hint, and again only if a worker dies. Like every spawned process, a worker imports
the server's ``__main__`` module first: ``foursquare serve``, ``python -m api.cli`` and
``uvicorn``/``gunicorn`` are safe; a home-made launcher script must keep its start under
``if __name__ == "__main__":``.

The bound lives on the event loop: a count of the jobs handed to the executor and not yet
finished (running or waiting for a worker). The executor's own queue is unbounded, so a
request that would make the count exceed ``workers + queue`` is refused with 503
``hints_busy`` instead of waiting behind a growing backlog.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from api.core.errors import HintsBusy
from engine.game import PublicView
from engine.player.advice import Advice, Budget, Policy, advise

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


def _start_worker(parent: int) -> None:
    """Worker start-up: a lower CPU priority (see ``WORKER_NICENESS``), no SIGINT (Ctrl-C in
    a terminal reaches the whole process group; the server stops its pool in order), and an
    exit as soon as the server process is gone (:func:`exit_with_parent`)."""
    os.nice(WORKER_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


class AdvicePool:
    """Worker processes that run :func:`engine.player.advice.advise`, at most ``workers``
    at once and ``queue`` more waiting. Use from one event loop; :meth:`close` at shutdown.

    Workers start on demand (at the first hints), so a server that gives no hints runs none.
    """

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(
                f"an advice pool needs workers >= 1 and queue >= 0, not {workers}, {queue}"
            )
        self.workers = workers
        self.limit = workers + queue
        self.outstanding = 0
        self._context = multiprocessing.get_context("spawn")
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self._context,
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )

    async def advise(self, view: PublicView, *, seed: int, budget: Budget) -> Advice:
        """``advise(view, policy=best, seed=seed, budget=budget)`` in a worker.

        Only the public view crosses to the worker (the stock's order is not in it), so the
        advice is exactly what the same call in this process would give. Raises
        :class:`HintsBusy` when the pool is full, or when a worker died (the pool is then
        replaced, so the next hint works).
        """
        if self.outstanding >= self.limit:
            raise HintsBusy(
                f"all {self.workers} hint workers are busy and {self.limit - self.workers} "
                "hints are waiting; ask again shortly"
            )
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            # A broken executor refuses the job at once; one whose worker dies fails it later.
            future: Future[Advice] = executor.submit(
                advise, view, policy=Policy.BEST, seed=seed, budget=budget
            )
            self.outstanding += 1
            # Counted until the job itself ends, not the request: a request that gives up (its
            # client went away) leaves its job running in a worker, and that job still fills it.
            future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._finished))
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(executor)
            raise HintsBusy("a hint worker stopped; ask again") from None

    def _finished(self) -> None:
        self.outstanding -= 1

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A worker died (killed, out of memory): the executor is unusable for good, so every
        request it failed swaps in one new executor (the first one to notice does)."""
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()

    def close(self) -> None:
        """Cancel the waiting jobs, wait for the running ones and stop every worker."""
        self._executor.shutdown(wait=True, cancel_futures=True)
