"""Announcing a change to every process: called by the features that write, inside the
transaction that makes the change.

A notification carries ids only (a game and its placement number, a won game, a game that began
or ended for the site's list of games being played, a challenge's day); the watchers' hubs read
what changed from the database (:mod:`api.events.hub`). How it travels depends on the database
(:mod:`api.events.fanout`): on PostgreSQL a ``NOTIFY``, queued in the transaction and delivered
only if it commits (carried by a placement's own statement, :func:`api.core.store.notify`),
from every session (the command-line tools' too, so that every replica
hears of what a tool did); on SQLite the publisher the app puts in its write sessions'
``info``, which hands it to this process's own hub once it has committed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import date
from typing import Literal, Protocol

from sqlalchemy.orm import Session

from api.core import store as core_store
from api.events import store
from api.games import GameFacts, GameHooks

PUBLISHER = "foursquare.events.publisher"  # the key of the publisher in Session.info

Kind = Literal["game", "win", "listing", "challenge", "topic"]


@dataclass(frozen=True)
class Notice:
    kind: Kind
    game_id: uuid.UUID | None = None
    number: int = 0
    day: date | None = None

    @property
    def payload(self) -> str:
        """``g:<game>:<placement number>``, ``t:<topic>``, ``w:<game>``, ``l:<game>`` or
        ``c:<YYYY-MM-DD>``."""
        if self.kind == "game" and self.game_id is not None:
            return f"g:{self.game_id.hex}:{self.number}"
        if self.kind == "topic" and self.game_id is not None:
            return f"t:{self.game_id.hex}"
        if self.kind == "win" and self.game_id is not None:
            return f"w:{self.game_id.hex}"
        if self.kind == "listing" and self.game_id is not None:
            return f"l:{self.game_id.hex}"
        assert self.day is not None
        return f"c:{self.day.isoformat()}"


def parse_notice(payload: str) -> Notice | None:
    """The notice a payload names; None for anything else."""
    parts = payload.split(":")
    try:
        if parts[0] == "g" and len(parts) == 3:
            return Notice("game", uuid.UUID(hex=parts[1]), int(parts[2]))
        if parts[0] == "t" and len(parts) == 2:
            return Notice("topic", uuid.UUID(hex=parts[1]))
        if parts[0] == "w" and len(parts) == 2:
            return Notice("win", uuid.UUID(hex=parts[1]))
        if parts[0] == "l" and len(parts) == 2:
            return Notice("listing", uuid.UUID(hex=parts[1]))
        if parts[0] == "c" and len(parts) == 2:
            return Notice("challenge", day=date.fromisoformat(parts[1]))
    except ValueError:
        return None
    return None


class Publisher(Protocol):
    def announce(self, session: Session, payload: str) -> None:
        """Send ``payload`` to every process once ``session``'s transaction commits."""


def announce(session: Session, notice: Notice) -> None:
    publisher: Publisher | None = session.info.get(PUBLISHER)
    if publisher is not None:
        publisher.announce(session, notice.payload)
    elif session.connection().dialect.name == "postgresql":
        core_store.notify(session, store.CHANNEL, notice.payload)


def game_moved(session: Session, game_id: uuid.UUID, number: int) -> None:
    """A placement ``number`` was stored, or the game ended (``number``: its placements)."""
    announce(session, Notice("game", game_id, number))


def win_recorded(session: Session, game_id: uuid.UUID) -> None:
    announce(session, Notice("win", game_id))


def listing_changed(session: Session, game_id: uuid.UUID) -> None:
    """The game began or ended: the list of games being played gains or loses it."""
    announce(session, Notice("listing", game_id))


def challenge_changed(session: Session, day: date) -> None:
    """A game of ``day``'s challenge was started or won: its counts changed."""
    announce(session, Notice("challenge", day=day))


def topic_changed(session: Session, key: uuid.UUID) -> None:
    """A feature's stream ``key`` (a :class:`api.events.hub.Topic`'s) changed: its watchers'
    hubs read it again once the transaction has committed."""
    announce(session, Notice("topic", key))


def subscribe(hooks: GameHooks) -> None:
    """Tell the watchers of every process of each placement, end and win, of each game that
    begins or ends (the site's list of games being played), and of each change to a daily
    challenge's counts (a game of it started or won). A sealed game's win is told when it is
    revealed, and the computer's games win nothing."""
    hooks.subscribe(
        "news",
        created=_game_created,
        moved=_game_moved,
        ended=_game_ended,
        revealed=_game_revealed,
    )


def _game_created(session: Session, game: GameFacts) -> None:
    listing_changed(session, game.game_id)  # the hub leaves out a challenge game still sealed
    if game.challenge_date is not None:
        challenge_changed(session, game.challenge_date)  # one more played


def _game_moved(session: Session, game: GameFacts) -> None:
    # Ids only: the watchers' hubs read what was stored once it has committed.
    game_moved(session, game.game_id, game.placements)


def _game_ended(session: Session, game: GameFacts) -> None:
    listing_changed(session, game.game_id)
    if not game.sealed:
        _game_revealed(session, game)


def _game_revealed(session: Session, game: GameFacts) -> None:
    if game.score is not None and not game.computer:
        if not game.reviewed:
            win_recorded(session, game.game_id)
        # else: its news waits for the fair-play review (win_boarded)
        if game.challenge_date is not None:
            challenge_changed(session, game.challenge_date)  # one more won


def win_boarded(session: Session, game: GameFacts) -> None:
    """A win the fair-play review found clean (or a moderator cleared) is on the boards now:
    its news, and its challenge's board, go out once the transaction commits."""
    win_recorded(session, game.game_id)
    if game.challenge_date is not None:
        challenge_changed(session, game.challenge_date)
