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
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TypeVar

from api.core.errors import HintsBusy
from api.ops.workers import start_worker
from engine.game import PublicView
from engine.player.advice import Advice, Budget, Policy, advise, choose

T = TypeVar("T")


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
            initializer=start_worker,
            initargs=(os.getpid(),),
        )

    async def advise(self, view: PublicView, *, seed: int, budget: Budget) -> Advice:
        """``advise(view, policy=best, seed=seed, budget=budget)`` in a worker.

        Only the public view crosses to the worker (the stock's order is not in it), so the
        advice is exactly what the same call in this process would give. Raises
        :class:`HintsBusy` when the pool is full, or when a worker died (the pool is then
        replaced, so the next hint works).
        """
        return await self._run(partial(advise, view, policy=Policy.BEST, seed=seed, budget=budget))

    async def choose(
        self, view: PublicView, *, seed: int, policy: Policy, budget: Budget
    ) -> tuple[int, int]:
        """The cell ``policy`` plays in ``view`` (``choose``: the placement alone, without the
        estimates a hint shows), in a worker, as :meth:`advise`."""
        position, _ = await self._run(
            partial(choose, view, policy=policy, seed=seed, budget=budget)
        )
        return position.row, position.col

    async def _run(self, job: Callable[[], T]) -> T:
        if self.outstanding >= self.limit:
            raise HintsBusy(
                f"all {self.workers} hint workers are busy and {self.limit - self.workers} "
                "hints are waiting; ask again shortly"
            )
        loop = asyncio.get_running_loop()
        executor = self._executor
        try:
            # A broken executor refuses the job at once; one whose worker dies fails it later.
            future: Future[T] = executor.submit(job)
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
