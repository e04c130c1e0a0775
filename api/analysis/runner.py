"""The analysis runner: each server process claims queued analyses and computes them, one
at a time, outside any request.

``POST /games/{id}/analysis`` only inserts a row in ``analyses`` (state ``queued``); it never
computes. Every server process runs an :class:`AnalysisRunner`, a background task that claims
queued jobs from the database (:func:`api.analysis.store.claim_analysis`: one ``UPDATE``
choosing its job by ``SELECT ... FOR UPDATE SKIP LOCKED``; SQLite has one writer at a time),
so that with any number of processes and replicas on one database exactly one process
computes a given analysis. The claimer renews a heartbeat while it works; a claim whose
heartbeat is older than ``FOURSQUARE_ANALYSIS_STALE_SECONDS`` (its process died, or hung) is
claimed again by another process, and the old claimer, if it comes back, finds its claim gone
and stores nothing.

Why a queue in the database and not a queue library: the jobs must survive the process that
accepted them and be shared by replicas, which the database already does for everything else
(no broker to run); the claim is one statement, and the heartbeat one guarded ``UPDATE``.

The result holds each placement's review (:mod:`engine.analysis`) and the deal's hindsight
optimum (:mod:`engine.solver`, ``FOURSQUARE_ANALYSIS_SOLVER_NODES``), computed after the
reviews: ``progress`` counts the placements reviewed, and stays at the total while the
optimum is searched.

Why a worker pool of its own and not the hints' (:mod:`api.hints.pool`): an analysis
is ~40 advice calls and a hindsight search, seconds to minutes of CPU, where a hint is a
player waiting for ~100 ms. Sharing the hints' worker would put a hint behind an analysis
step, and the hints' queue bound would count analysis steps and refuse hints with 503. So
analyses run in one more spawned worker per server process (at most one analysis at a time
per process), at a lower CPU priority than the hint workers (niceness ``+15`` against
``+10``): on a busy machine placements go first, then hints, then analyses. The work is sent
one placement at a time, so progress is known between steps and a step is short.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import multiprocessing
import os
import secrets
import signal
import socket
import uuid
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import timedelta
from typing import TypeVar

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from api.analysis import result, store
from api.analysis.settings import AnalysisSettings
from api.core.clock import now
from api.core.database import Database, Executor
from api.games import GameService
from api.ops.workers import WORKER_NICENESS, exit_with_parent
from engine.analysis import (
    PlacementReview,
    at_least_played,
    questions,
    review_placement,
    summarise,
)
from engine.game import Game
from engine.player.advice import Budget
from engine.solver import DEFAULT_NODES, solve

logger = logging.getLogger("foursquare.analysis")

T = TypeVar("T")

# Below the hint workers' priority (see the module docstring).
ANALYSIS_NICENESS = WORKER_NICENESS + 5


def _start_worker(parent: int) -> None:
    """Analysis worker start-up: a lower CPU priority than hints, no SIGINT (the server stops
    its pool in order), and an exit as soon as the server process is gone (a step may take
    minutes; :func:`api.ops.workers.exit_with_parent`)."""
    os.nice(ANALYSIS_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


class _Lost(Exception):
    """The job's claim was taken over by another process: stop, store nothing."""


class AnalysisRunner:
    """The background task of one server process that claims and computes analyses, one at
    a time, in a spawned worker process of its own (see the module docstring)."""

    def __init__(self, database: Database, settings: AnalysisSettings) -> None:
        self.database = database
        self.settings = settings
        # Names this process in ``analyses.claimed_by``: host, pid, and a random tag (a pid
        # is reused after a restart; the tag is not).
        self.identity = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._wake = asyncio.Event()
        self._executor: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="analysis-runner")

    def wake(self) -> None:
        """Look for work now (a request just queued some), not at the next poll."""
        self._wake.set()

    async def close(self) -> None:
        """Stop: a job in progress goes back to the queue for another process."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        poll = self.settings.analysis_poll_seconds
        while True:
            try:
                claimed = await self._claim()
            except Exception:
                # A busy or unreachable database must not end the loop: try again later.
                logger.exception("claiming an analysis failed")
                claimed = None
            if claimed is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), poll)
                self._wake.clear()
                continue
            try:
                await self._compute(claimed)
            except Exception:
                # Only the bookkeeping after a failure can get here (the database failed while
                # recording it): the claim then goes stale and is taken over; the loop goes on.
                logger.exception("recording the end of the analysis of %s failed", claimed)

    async def _claim(self) -> uuid.UUID | None:
        """The game whose analysis this process claimed, if any."""
        settings = self.settings
        stale_before = now() - timedelta(seconds=settings.analysis_stale_seconds)
        # A read first: most polls find nothing, and a write transaction would take SQLite's
        # one write lock every poll of every process.
        if not await self.database.read(
            lambda session: store.analysis_work_exists(session, stale_before)
        ):
            return None

        def claim(session: Session) -> uuid.UUID | None:
            at = now()
            store.fail_abandoned_analyses(session, stale_before, settings.analysis_max_attempts, at)
            return store.claim_analysis(
                session, self.identity, at, stale_before, settings.analysis_max_attempts
            )

        return await self.database.write(claim)

    async def _in_worker(self, work: Callable[[], T]) -> T:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)

    async def _renew(self, game_id: uuid.UUID, reviewed: int) -> None:
        held = await self.database.write(
            lambda session: store.renew_analysis(session, game_id, self.identity, reviewed, now())
        )
        if not held:
            raise _Lost

    async def _compute(self, game_id: uuid.UUID) -> None:
        reviewed = [0]  # shared with the heartbeat

        async def heartbeat() -> None:
            while True:
                await asyncio.sleep(self.settings.analysis_heartbeat_seconds)
                try:
                    await self._renew(game_id, reviewed[0])
                except SQLAlchemyError:
                    # A busy or unreachable database: try again at the next beat (if it stays
                    # away past the stale timeout, another process takes the job over).
                    logger.warning("renewing the claim on the analysis of %s failed", game_id)

        def read(session: Executor) -> tuple[Game, list[tuple[int, int]]]:
            placements = GameService.history_in(session, game_id)
            positions = [(placement.row, placement.col) for placement in placements]
            return GameService.load_in(session, game_id).game, positions

        def release() -> Awaitable[bool]:
            """The job back to the queue, so that another process (or this one) takes it at
            once rather than after the heartbeat timeout."""
            return self.database.write(
                lambda session: store.release_analysis(session, game_id, self.identity)
            )

        beating = asyncio.create_task(heartbeat())
        try:
            game, positions = await self.database.read(read)
            await self._review(game_id, game, positions, reviewed)
        except asyncio.CancelledError:
            # The server is stopping: hand the job back so another process starts it now.
            with contextlib.suppress(Exception):
                await asyncio.shield(release())
            raise
        except _Lost:
            logger.warning("analysis of game %s was taken over by another process", game_id)
        except SQLAlchemyError:
            # The database failed under the job: hand it back if it can be reached, else the
            # claim goes stale and another process (or this one) takes it over later.
            logger.warning("the analysis of %s stopped: the database failed", game_id)
            with contextlib.suppress(SQLAlchemyError):
                await release()
        except BrokenProcessPool:
            # The worker died (killed, out of memory): a new one for the next job, and this
            # job back to the queue (its attempts stay counted).
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            await release()
        except Exception as error:
            logger.exception("analysis of game %s failed", game_id)
            message = f"{type(error).__name__}: the analysis could not be computed"
            await self.database.write(
                lambda session: store.finish_analysis(
                    session, game_id, self.identity, now(), error=message, reviewed=reviewed[0]
                )
            )
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError, _Lost, Exception):
                await beating

    async def _review(
        self,
        game_id: uuid.UUID,
        game: Game,
        positions: list[tuple[int, int]],
        reviewed: list[int],
    ) -> None:
        effort = self.settings.analysis_placements
        budget = Budget(placements=effort)
        seed = game_id.int & 0xFFFFFFFF  # the hints' seed for the game (best ignores it)
        # Codes, not cards: what crosses to the worker is pickled.
        deck = [card.code for card in game.deck]
        reviews: list[PlacementReview] = []
        for question in questions(deck, positions):
            review = await self._in_worker(
                functools.partial(review_placement, question, seed=seed, budget=budget)
            )
            reviews.append(review)
            reviewed[0] = len(reviews)
            # Also how a claim lost meanwhile is noticed: the renewal then raises _Lost.
            await self._renew(game_id, reviewed[0])
        # The hindsight optimum last: the deck is revealed (the game is over), so the whole
        # order may be used; the heartbeat goes on meanwhile.
        nodes = self.settings.analysis_solver_nodes or DEFAULT_NODES
        solved = await self._in_worker(functools.partial(solve, deck, nodes=nodes))
        optimum = at_least_played(solved, positions, game.score)
        text = result.dumps(game.status.value, game.score, summarise(reviews), effort, optimum)
        stored = await self.database.write(
            lambda session: store.finish_analysis(
                session, game_id, self.identity, now(), result=text, reviewed=len(reviews)
            )
        )
        if not stored:
            raise _Lost
        logger.info(
            "analysis of game %s computed by %s",
            game_id,
            self.identity,
            extra={"fields": {"game_id": str(game_id), "computed_by": self.identity}},
        )
