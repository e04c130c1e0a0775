"""When the site's list of games being played is read: a ``game`` event is sent on the site's
streams when a game begins, moves or ends (the hub hears of each, and reads and sends them).

One task per process reads the games noted since its last read, all in one read (a statement
each), one read after another, so that a game's state is never sent after a later one of it.
A game that begins or ends is read at once; one that moves waits up to :data:`MOVES_EVERY` for
the next read: however many cards are placed, a process reads a moving game at most once an
interval, and the games moved meanwhile together, rather than once per placement.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

from api.core.database import Executor
from api.games import ListedGame, listed_game

MOVES_EVERY = 1.0  # seconds: a moving game is read for the list at most this often

Read = Callable[[Executor], list[ListedGame]]


class Listings:
    """The games to read for the list; ``read`` reads them and sends what may be shown (the
    hub's: sealed games left out), in a task ``spawn`` starts (and the hub ends)."""

    def __init__(
        self,
        read: Callable[[Read], Coroutine[Any, Any, None]],
        spawn: Callable[[Coroutine[Any, Any, None]], None],
    ) -> None:
        self.read = read
        self.spawn = spawn
        self._noted: set[uuid.UUID] = set()
        self._at_once = asyncio.Event()  # a game noted began or ended
        self._reading = False

    def note(self, game_id: uuid.UUID, at_once: bool) -> None:
        """A game moved, or began or ended (``at_once``): read it for the list."""
        self._noted.add(game_id)
        if at_once:
            self._at_once.set()
        if not self._reading:
            self._reading = True
            self.spawn(self._read_noted())

    async def _read_noted(self) -> None:
        try:
            while self._noted:
                if not self._at_once.is_set():  # only moves so far: more may come meanwhile
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._at_once.wait(), MOVES_EVERY)
                self._at_once.clear()
                games, self._noted = self._noted, set()
                await self.read(partial(_listed, games=games))
        finally:
            self._reading = False


def _listed(session: Executor, games: set[uuid.UUID]) -> list[ListedGame]:
    # One read, a statement each: a game's row of the list is one index lookup.
    return [found for game_id in games for found in listed_game(session, game_id)]
