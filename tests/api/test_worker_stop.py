"""A server worker told to stop while it boots leaves, even when the exit its signal handler
raised was lost: raised inside a garbage collector's callback (a worker's build ends with
gc.collect()), a SystemExit is printed and ignored, and the worker served on, on the port its
master had closed, until the master killed it and its draining siblings at graceful_timeout
(test_lifecycle.py's drain then got an empty answer, once in several runs)."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import weakref
from collections.abc import Iterator

import pytest
from gunicorn.config import Config  # type: ignore[import-untyped]
from gunicorn.glogging import Logger  # type: ignore[import-untyped]

from api.ops.server import Worker


@pytest.fixture
def worker(monkeypatch: pytest.MonkeyPatch) -> Iterator[Worker]:
    # uvicorn-worker points uvicorn's loggers at gunicorn's handlers: undone afterwards.
    for name in ("uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        for attribute in ("handlers", "level", "propagate"):
            monkeypatch.setattr(logger, attribute, getattr(logger, attribute))
    config = Config()
    made = Worker(1, os.getppid(), [], None, 30, config, Logger(config))
    # The worker's own signal handlers, in this process for the test's length.
    handlers = {sig: signal.getsignal(sig) for sig in made.SIGNALS}
    made.init_signals()
    try:
        yield made
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)
        made.tmp.close()


def test_a_stop_signal_whose_exit_was_swallowed_still_stops_the_worker(
    worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[tuple[int, int]] = []
    monkeypatch.setattr(os, "kill", lambda pid, sig: sent.append((pid, sig)))
    swallowed: list[type[BaseException] | None] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda raised: swallowed.append(raised.exc_type))

    asyncio.run(worker.callback_notify())  # a heartbeat: nothing to do yet
    assert sent == []

    class Garbage:
        pass

    handler = signal.getsignal(signal.SIGTERM)
    assert callable(handler)
    garbage = Garbage()
    # The handler, run inside the callback of a collected object, as the signal came then.
    reference = weakref.ref(garbage, lambda _: handler(signal.SIGTERM, None))
    del garbage
    assert reference() is None and swallowed == [SystemExit]  # the worker did not exit

    # Its first heartbeat once uvicorn serves hands the stop to uvicorn's own handler, which
    # drains; once only.
    asyncio.run(worker.callback_notify())
    asyncio.run(worker.callback_notify())
    assert sent == [(os.getpid(), signal.SIGTERM)]
