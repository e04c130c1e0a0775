"""What the games' service works with: a game as anyone may see it, what a request gets
back, and a stored game's engine state."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import date, datetime

from api.core.database import Executor
from api.core.ids import existing_game
from api.core.models import PlacementRecord
from api.games import store
from api.games.snapshot import GameSnapshot
from api.games.store import GameChange, GameRecord, NewGameRow, StoredView
from engine import Game


@dataclass(frozen=True)
class PublicGame:
    """A game as anyone may see it: its public columns and its snapshot; a won game's
    all-time rank too, which moves as other games finish and so is never stored."""

    id: uuid.UUID
    player: str
    version: int
    assisted: bool
    deck_commitment: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    challenge_date: date | None
    snapshot: GameSnapshot
    rank: int | None = None


@dataclass(frozen=True)
class GameRead:
    """A game read by ``GET /games/{id}``: ``sealed`` if it is a daily challenge game of a
    day still open (its player's only, and without its reveal even once over)."""

    game: PublicGame
    sealed: bool


@dataclass(frozen=True)
class Created:
    game: PublicGame
    token: str  # the only time it is shown


@dataclass(frozen=True)
class Placed:
    placement: PlacementRecord
    game: PublicGame


@dataclass(frozen=True)
class History:
    game_id: uuid.UUID
    placements: list[PlacementRecord]
    private: bool  # a daily challenge game of a day still open


@dataclass(frozen=True)
class LoadedGame:
    """A stored game and its engine state (for hints and analyses)."""

    row: GameRecord
    game: Game


@dataclass(frozen=True)
class DealtGame:
    """A game dealt and not stored yet: its row but the player's, and its token."""

    row: NewGameRow
    token: str


@dataclass(frozen=True)
class NewGameRequest:
    """``POST /games``: the body's name if it gave one (None: the key's account, or a guest
    called "anonymous"), whether it asks for today's daily challenge, the player's key."""

    requested: str | None
    daily: bool
    key: str | None


# ---------------------------------------------------------------- state and snapshots


def encode(game: Game) -> str:
    return json.dumps(game.to_dict(), separators=(",", ":"))


def decode(row: GameRecord) -> Game:
    """The engine state of a stored game."""
    return Game.from_dict(json.loads(row.state))


def public_game(view: StoredView, taken: GameSnapshot, rank: int | None = None) -> PublicGame:
    return PublicGame(
        view.id,
        view.player,
        view.version,
        view.assisted,
        view.deck_commitment,
        view.created_at,
        view.updated_at,
        view.finished_at,
        view.challenge_date,
        taken,
        rank,
    )


def view_after(
    row: GameRecord, taken: GameSnapshot, change: GameChange | None = None
) -> StoredView:
    """The public columns of ``row`` after ``change`` (or as dealt)."""
    return StoredView(
        row.id,
        row.player,
        row.version + (1 if change is not None else 0),
        taken.status,
        row.assisted,
        row.deck_commitment,
        row.created_at,
        change.updated_at if change is not None else row.updated_at,
        change.finished_at if change is not None else row.finished_at,
        row.challenge_date,
        None,
        None,
    )


def load_game(session: Executor, game_id: uuid.UUID) -> LoadedGame:
    """A game as stored and its engine state, or 404."""
    row = existing_game(store.get_game(session, game_id), game_id)
    return LoadedGame(row, decode(row))


def placements_of(session: Executor, game_id: uuid.UUID) -> list[PlacementRecord]:
    """A game's placements in order, or 404."""
    placements, _ = existing_game(store.get_history(session, game_id), game_id)
    return placements
