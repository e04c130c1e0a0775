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

The bound and the order live on the event loop, not in the executor (whose queue is
unbounded and first come, first served). The pool has ``workers + queue`` *places*: a request
takes one before anything else (:meth:`AdvicePool.admit`), or is refused with 503
``hints_busy`` at once, instead of waiting behind a growing backlog. A job is handed to the
executor only when a worker is free for it, so the executor never queues.

Fair shares. Each place is held by a *client*: its keys, one per dimension (the client's
address, and the credential it asked with; a race's computer player is a client of its own).
A client may hold, on each of its keys, at most its share of the places::

    share = max(1, places // (clients of that dimension holding places, itself included, + 1))

so a client alone holds at most half of them (2 of the default 5), two at most a third each,
and a client arriving always finds a place while the clients number fewer than the places.
When a worker is free, the waiting request it takes is the one whose client has the fewest
hints *running* (then the longest waiting), not the first to arrive: a client asking now and
then goes ahead of one that keeps the workers busy. A tester asking hints on five games'
tokens from one address held every place and left a bystander asking every half second 27
refusals out of 30; now that address holds two places, the bystander one, and the bystander's
hint runs as soon as the one running ends.

Why hand-written: the executor has no notion of clients or of order other than arrival, and
asyncio's primitives none of shares; the whole of it is a few counters and one list.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import TypeVar

from api.hints.errors import HintsBusy
from api.ops.workers import start_worker
from engine.game import PublicView
from engine.player.advice import Advice, Budget, Policy, advise, choose

T = TypeVar("T")

# A client's keys: (dimension, value) pairs, e.g. (("address", "192.0.2.1"), ("credential",
# sha256 of its token)). Each dimension's keys share the places among themselves.
Keys = tuple[tuple[str, str], ...]


class Place:
    """A request's place in an :class:`AdvicePool`, from its admission until its job ends.

    ``admitted``: held, no job yet; ``waiting``: its job waits for a worker; ``turn``: a
    worker is free for it and the job is being handed over; ``running``: the job is in a
    worker (it holds the place until it ends, even if its request gave up); ``done``."""

    __slots__ = ("keys", "order", "state", "turn")

    def __init__(self, keys: Keys, order: int) -> None:
        self.keys = keys
        self.order = order
        self.state = "admitted"
        self.turn: asyncio.Future[None] | None = None


class AdvicePool:
    """Worker processes that run :func:`engine.player.advice.advise`, at most ``workers``
    at once and ``queue`` more waiting, shared fairly between clients (see the module
    docstring). Use from one event loop; :meth:`close` at shutdown.

    Workers start on demand (at the first hints), so a server that gives no hints runs none.
    """

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1 or queue < 0:
            raise ValueError(
                f"an advice pool needs workers >= 1 and queue >= 0, not {workers}, {queue}"
            )
        self.workers = workers
        self.limit = workers + queue
        self.held = 0  # places held
        self.running = 0  # places whose job has (or is being given) a worker
        self._holding: Counter[tuple[str, str]] = Counter()
        self._running: Counter[tuple[str, str]] = Counter()
        self._waiting: list[Place] = []
        self._arrivals = 0
        self._context = multiprocessing.get_context("spawn")
        self._executor = self._new_executor()

    def _new_executor(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=self._context,
            initializer=start_worker,
            initargs=(os.getpid(),),
        )

    def share(self, key: tuple[str, str]) -> tuple[int, int]:
        """The places ``key``'s client may hold now: the places divided among the clients of
        its dimension holding places (itself included) and one more, the next to arrive; and
        how many others hold places."""
        dimension = key[0]
        others = sum(1 for held in self._holding if held[0] == dimension and held != key)
        return max(1, self.limit // (others + 2)), others

    def admit(self, keys: Keys) -> Place:
        """A place for a client with ``keys``, or :class:`HintsBusy` (before anything else is
        done for the request, so that a refusal costs the client nothing)."""
        if self.held >= self.limit:
            raise HintsBusy(
                f"all {self.workers} hint workers are busy and {self.limit - self.workers} "
                "hints are waiting; ask again shortly"
            )
        for key in keys:
            share, others = self.share(key)
            if self._holding[key] >= share:
                raise HintsBusy(
                    f"hints asked with this {key[0]} hold {self._holding[key]} of the "
                    f"{self.limit} places of the hint workers, its share while "
                    f"{others} other clients hold some; ask again once one is answered"
                )
        self._arrivals += 1
        place = Place(keys, self._arrivals)
        self.held += 1
        self._holding.update(keys)
        return place

    def release(self, place: Place) -> None:
        """Give a place back whose job never started (its request was refused, failed or
        gave up); a running job's place is given back when the job ends. Idempotent."""
        if place.state in ("admitted", "waiting", "turn"):
            self._free(place)

    def _free(self, place: Place) -> None:
        if place.state == "waiting":
            self._waiting.remove(place)
        if place.state in ("turn", "running"):
            self.running -= 1
            self._running.subtract(place.keys)
        place.state = "done"
        self.held -= 1
        self._holding.subtract(place.keys)
        self._holding += Counter()  # drop the keys that hold nothing now
        self._running += Counter()
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand free workers to the waiting places: the client with the fewest jobs running
        first, then the longest waiting."""
        while self.running < self.workers and self._waiting:
            place = min(
                self._waiting,
                key=lambda p: (max((self._running[key] for key in p.keys), default=0), p.order),
            )
            self._waiting.remove(place)
            place.state = "turn"
            self.running += 1
            self._running.update(place.keys)
            assert place.turn is not None
            if not place.turn.done():
                place.turn.set_result(None)

    async def advise(self, view: PublicView, *, seed: int, budget: Budget, place: Place) -> Advice:
        """``advise(view, policy=best, seed=seed, budget=budget)`` in a worker, in ``place``
        (from :meth:`admit`).

        Only the public view crosses to the worker (the stock's order is not in it), so the
        advice is exactly what the same call in this process would give. Raises
        :class:`HintsBusy` when a worker died (the pool is then replaced, so the next hint
        works).
        """
        return await self._run(
            partial(advise, view, policy=Policy.BEST, seed=seed, budget=budget), place
        )

    async def choose(
        self, view: PublicView, *, seed: int, policy: Policy, budget: Budget, keys: Keys
    ) -> tuple[int, int]:
        """The cell ``policy`` plays in ``view`` (``choose``: the placement alone, without the
        estimates a hint shows), in a worker, for the client ``keys``, as :meth:`advise`
        (:class:`HintsBusy` too when that client has no place)."""
        place = self.admit(keys)
        try:
            position, _ = await self._run(
                partial(choose, view, policy=policy, seed=seed, budget=budget), place
            )
        finally:
            self.release(place)
        return position.row, position.col

    async def _run(self, job: Callable[[], T], place: Place) -> T:
        if place.state != "admitted":
            raise ValueError(f"a place runs one job (this one is {place.state})")
        loop = asyncio.get_running_loop()
        place.turn = loop.create_future()
        place.state = "waiting"
        self._waiting.append(place)
        self._dispatch()
        try:
            await place.turn
        except BaseException:
            self.release(place)  # gave up waiting (its client went away): the next one goes
            raise
        executor = self._executor
        try:
            # A broken executor refuses the job at once; one whose worker dies fails it later.
            future: Future[T] = executor.submit(job)
        except BrokenProcessPool:
            self.release(place)
            self._replace(executor)
            raise HintsBusy("a hint worker stopped; ask again") from None
        except BaseException:
            self.release(place)
            raise
        place.state = "running"
        # Held until the job itself ends, not the request: a request that gives up (its
        # client went away) leaves its job running in a worker, and that job still fills it.
        future.add_done_callback(lambda _: loop.call_soon_threadsafe(self._free, place))
        try:
            return await asyncio.wrap_future(future)
        except BrokenProcessPool:
            self._replace(executor)
            raise HintsBusy("a hint worker stopped; ask again") from None

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        """A worker died (killed, out of memory): the executor is unusable for good, so every
        request it failed swaps in one new executor (the first one to notice does)."""
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = self._new_executor()

    def close(self) -> None:
        """Refuse the waiting jobs, wait for the running ones and stop every worker."""
        for place in list(self._waiting):
            if place.turn is not None and not place.turn.done():
                place.turn.set_exception(HintsBusy("the server is stopping; ask again"))
        self._executor.shutdown(wait=True, cancel_futures=True)
