"""The fair-play review runner: each server process claims queued reviews and computes them,
one at a time, in a worker process of its own, outside any request.

A won game without hints ends with its review queued in the same transaction
(:func:`api.fairplay.service.subscribe`), so a review is never lost: a process that dies
while computing one leaves a claim whose heartbeat goes stale, and another process (or this
one, restarted) takes it over (``FOURSQUARE_FAIRPLAY_STALE_SECONDS``), as the analyses'
runner does (:mod:`api.analysis.runner`, whose module docstring says why the queue is in the
database). Jobs are claimed oldest first, so wins reach the boards in the order they were won.

Why a worker of its own: a review is ~20-40 searches of the computer player (1-3 s of CPU);
in the hints' workers it would hold a player waiting for a hint, and in the server process
it would hold every request. The worker runs at the analyses' low priority (niceness +15), so
that on a busy machine placements and hints go first.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import multiprocessing
import os
import secrets
import signal
import socket
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import datetime, timedelta

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session

from api.core.clock import now
from api.core.database import Database, Executor
from api.fairplay import service, store
from api.fairplay.settings import FairPlaySettings
from api.fairplay.store import Job
from api.games import GameService
from api.ops.workers import WORKER_NICENESS, exit_with_parent
from engine.fairplay import Evidence, review_game, timing_of

logger = logging.getLogger("foursquare.fairplay")

# The analyses' priority: below the hint workers'.
REVIEW_NICENESS = WORKER_NICENESS + 5


def _start_worker(parent: int) -> None:
    os.nice(REVIEW_NICENESS)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    exit_with_parent(parent)


def _review(
    deck: list[str], positions: list[tuple[int, int]], started: float, placed: list[float]
) -> Evidence:
    """In the worker: the review of one game (times as POSIX timestamps, to pickle less)."""
    from datetime import UTC, datetime

    def moment(at: float) -> datetime:
        return datetime.fromtimestamp(at, UTC)

    return review_game(deck, positions, timing_of(moment(started), [moment(t) for t in placed]))


class FairPlayRunner:
    """The background task of one server process that claims and computes reviews."""

    def __init__(self, database: Database, settings: FairPlaySettings) -> None:
        self.database = database
        self.settings = settings
        self.identity = f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"
        self._wake = asyncio.Event()
        self._executor: ProcessPoolExecutor | None = None
        self._task: asyncio.Task[None] | None = None
        self._unlisten: Callable[[], None] = lambda: None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="fairplay-runner")
        loop = asyncio.get_running_loop()

        # Wins are queued by write transactions in the database's threads.
        def wake() -> None:
            loop.call_soon_threadsafe(self._wake.set)

        self._unlisten = service.listen(wake)

    async def close(self) -> None:
        """Stop: a review in progress goes back to the queue for another process."""
        self._unlisten()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        poll = self.settings.fairplay_poll_seconds
        while True:
            try:
                claimed = await self._claim()
            except Exception:
                logger.exception("claiming a fair-play review failed")
                claimed = None
            if claimed is None:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), poll)
                self._wake.clear()
                continue
            try:
                await self._compute(claimed)
            except Exception:
                logger.exception("recording the review of %s failed", claimed.game_id)

    def _stale_before(self) -> datetime:
        return now() - timedelta(seconds=float(self.settings.fairplay_stale_seconds))

    async def _claim(self) -> Job | None:
        stale_before = self._stale_before()
        if not await self.database.read(lambda session: store.work_exists(session, stale_before)):
            return None
        return await self.database.write(
            lambda session: store.claim(session, self.identity, now(), stale_before)
        )

    async def _compute(self, job: Job) -> None:
        game_id = job.game_id

        async def heartbeat() -> None:
            while True:
                await asyncio.sleep(self.settings.fairplay_heartbeat_seconds)
                try:
                    await self.database.write(
                        lambda session: store.renew(session, game_id, self.identity, now())
                    )
                except SQLAlchemyError:
                    logger.warning("renewing the claim on the review of %s failed", game_id)

        def read(session: Executor) -> tuple[list[str], list[tuple[int, int]], float, list[float]]:
            loaded = GameService.load_in(session, game_id)
            placements = GameService.history_in(session, game_id)
            return (
                [card.code for card in loaded.game.deck],
                [(p.row, p.col) for p in placements],
                loaded.row.created_at.timestamp(),
                [p.created_at.timestamp() for p in placements],
            )

        def release(session: Session) -> bool:
            return store.release(session, game_id, self.identity)

        beating = asyncio.create_task(heartbeat())
        try:
            deck, positions, started, placed = await self.database.read(read)
            evidence = await self._in_worker(
                functools.partial(_review, deck, positions, started, placed)
            )
            text = json.dumps(service.evidence_dict(evidence), separators=(",", ":"))
            stored = await self.database.write(
                lambda session: service.apply_verdict(
                    session, job, evidence.verdict.value, text, self.identity, self.settings
                )
            )
            if stored:
                logger.info(
                    "fair-play review of game %s: %s",
                    game_id,
                    evidence.verdict.value,
                    extra={"fields": {"game_id": str(game_id), "verdict": evidence.verdict}},
                )
            else:
                logger.warning("the review of game %s was taken over by another process", game_id)
        except asyncio.CancelledError:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.database.write(release))
            raise
        except SQLAlchemyError:
            logger.warning("the review of %s stopped: the database failed", game_id)
            with contextlib.suppress(SQLAlchemyError):
                await self.database.write(release)
        except BrokenProcessPool:
            # The worker died (killed, out of memory): a new one for the next job, and this
            # job back to the queue (its attempts stay counted).
            if self._executor is not None:
                self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            await self.database.write(release)
        except Exception:
            # A review that cannot be computed goes back to the queue; after
            # store.MAX_ATTEMPTS claims nobody takes it again, and the game stays pending
            # (off the boards) where the moderators' queue shows it.
            logger.exception("the review of game %s failed", game_id)
            await self.database.write(release)
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await beating

    async def _in_worker(self, work: functools.partial[Evidence]) -> Evidence:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return await asyncio.get_running_loop().run_in_executor(self._executor, work)
