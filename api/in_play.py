"""Games in play, as this process last stored them, so that the next placement need not read.

A player places a card, then the next, on the same game: the game as stored by the last
placement (its record and its engine state) is what the next placement would read back. This
process keeps it after each placement it stores (and after each game it creates), and a
placement that finds its game here plans on it instead of reading the game and decoding its
state again.

What is kept here is never trusted over the database, only tried first. A placement *takes*
its game out (so no two requests ever hold the same engine state) and stores it with the same
guarded update as any placement (``WHERE version = :read``), so a copy that is stale because
another process, or a hint, or a keyed request, moved the game since matches no row and
stores nothing. Whatever is refused on a copy (stale or not: a conflict, a failed
``If-Match``, an illegal placement, a bad token) is then decided again, from the start, on the
game as read from the database: the answer is always the one the database gives. Finished
games are not kept, and at most ``capacity`` games are, least recently stored first out.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from typing import NamedTuple

from api.repository import GameRecord
from engine import Game


class GameInPlay(NamedTuple):
    row: GameRecord  # as stored
    game: Game  # its engine state, owned by this cache until taken


class GamesInPlay:
    """Stored games by id, with their engine state: a bounded, thread-safe LRU."""

    def __init__(self, capacity: int = 1024) -> None:
        self.capacity = capacity
        self._games: OrderedDict[uuid.UUID, GameInPlay] = OrderedDict()
        self._lock = threading.Lock()  # keyed requests and hints run in worker threads

    def take(self, game_id: uuid.UUID) -> GameInPlay | None:
        """The game as this process last stored it, removed from here (None if not here)."""
        with self._lock:
            return self._games.pop(game_id, None)

    def put(self, row: GameRecord, game: Game) -> None:
        """Keep a game just stored (its state must not be changed by the caller afterwards),
        unless it is over or a later version is kept already."""
        if self.capacity == 0:
            return
        with self._lock:
            if game.is_over:
                self._games.pop(row.id, None)
                return
            kept = self._games.get(row.id)
            if kept is not None and kept.row.version >= row.version:
                return
            self._games[row.id] = GameInPlay(row, game)
            self._games.move_to_end(row.id)
            while len(self._games) > self.capacity:
                self._games.popitem(last=False)

    def discard(self, game_id: uuid.UUID) -> None:
        """Forget a game (changed by another path, which keeps no copy here)."""
        with self._lock:
            self._games.pop(game_id, None)

    def __len__(self) -> int:
        return len(self._games)
