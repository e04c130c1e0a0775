"""The shapes of a game between its row and its answer: the row (:mod:`api.games.store`),
its engine state while it is played (:func:`decode`), its snapshot
(:mod:`api.games.snapshot`) and the response models it is answered with (:func:`game_out`)."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

from api.core.database import Executor
from api.core.schemas import CARD_VALUES
from api.games import store
from api.games.hooks import GameFacts
from api.games.ids import existing_game
from api.games.schemas import GameCreated, GameOut, PlacementOut
from api.games.snapshot import GameSnapshot
from api.games.store import GameChange, GameRecord, NewGame, PlacementRecord, StoredView
from engine import Game
from engine.cards import DECK_SIZE


@dataclass(frozen=True)
class GameRead:
    """A game read by ``GET /games/{id}``: ``sealed`` if it is a daily challenge game of a
    day still open (its player's only, and without its reveal even once over)."""

    game: GameOut
    sealed: bool


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


class GameSummary(NamedTuple):
    """A game's counts as anyone may see them while it is sealed (a race's progress): never
    a card."""

    id: uuid.UUID
    status: str
    score: int | None
    placements: int
    face_down: int
    stock: int
    finished_at: datetime | None
    assisted: bool
    sealed: bool  # a race's game, its race not over: its player's only
    computer: bool


@dataclass(frozen=True)
class DealtGame:
    """A game dealt and not stored yet: its row but the player's, and its token."""

    row: NewGame
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


_CARDS = CARD_VALUES


def game_out(view: StoredView, taken: GameSnapshot, rank: int | None = None) -> GameOut:
    """A game as anyone may see it: its public columns and its snapshot; a won game's
    all-time rank too, which moves as other games finish and so is never stored.

    Built from plain values that Pydantic's core (Rust) validates into the model: for a
    game's dozens of small objects that is about half the cost of building each model in
    Python with ``model_construct``. The values are the service's own, so the validation
    never refuses one; ``tests/api/test_views.py`` renders thousands of states."""
    return GameOut.model_validate(_game_values(view, taken, rank))


def game_created(view: StoredView, taken: GameSnapshot, token: str) -> GameCreated:
    return GameCreated.model_validate({**_game_values(view, taken, None), "token": token})


def _game_values(view: StoredView, taken: GameSnapshot, rank: int | None) -> dict[str, Any]:
    """The response's values: the view's public columns and the snapshot's fields by name
    (the model leaves out the storage columns), cards and cells as response values. A public
    column or a snapshot field is shown once the response model names it. The snapshot's
    fields are its ``vars``: ``dict(taken)`` first asks the model for a ``keys`` method, which
    Pydantic refuses by raising and formatting an ``AttributeError`` (16 µs, 3 % of a read)."""
    values = view._asdict() | vars(taken)
    values["current_card"] = _CARDS[taken.current_card] if taken.current_card else None
    values["piles"] = [
        {
            "row": pile.row,
            "col": pile.col,
            "cards": [_CARDS[code] for code in pile.cards],
            "face_up": pile.face_up,
        }
        for pile in taken.piles
    ]
    values["legal_placements"] = [{"row": row, "col": col} for row, col in taken.legal_placements]
    values["reveal"] = (
        {"deck": taken.reveal.deck, "salt": taken.reveal.salt} if taken.reveal else None
    )
    values["rank"] = rank
    values["fair_play"] = (
        {"status": view.review, "words": REVIEW_WORDS[view.review]} if view.review else None
    )
    return values


# What the fair-play review's word on a won game means to its player (api.fairplay).
REVIEW_WORDS = {
    "pending": "Checking this game before it joins the public boards (the fair-play review: "
    "usually within a minute).",
    "clean": "Checked by the fair-play review: on the public boards.",
    "flagged": "Held off the public boards: the fair-play review found its placements "
    "followed the computer player's choices too closely for a person's own play. It stays "
    "yours with its score, and a moderator looks at every held game.",
    "cleared": "Cleared by a moderator after the fair-play review held it: on the public boards.",
    "confirmed": "Kept off the public boards: a moderator confirmed the fair-play review's "
    "finding that it followed the computer player's choices.",
    "held": "Off the public boards while its account is marked by the fair-play review.",
}


def placement_out(placement: PlacementRecord) -> PlacementOut:
    return PlacementOut.model_validate(
        {
            "number": placement.number,
            "row": placement.row,
            "col": placement.col,
            "card": _CARDS[placement.card],
            "flipped": placement.flipped,
            "status_after": placement.status_after,
            "stock_count": stock_after(placement.number, placement.status_after),
            "created_at": placement.created_at,
        }
    )


def stock_after(number: int, status_after: str) -> int:
    """Cards left in the stock after placement ``number``: the deck less the cards placed,
    less the card drawn next while the game goes on (what the engine's ``stock_count`` is)."""
    return DECK_SIZE - number - (1 if status_after == "in_progress" else 0)


def view_after(
    row: GameRecord, taken: GameSnapshot, change: GameChange | None = None
) -> StoredView:
    """The public columns of ``row`` after ``change`` (or as dealt)."""
    view = StoredView._make(getattr(row, name, None) for name in StoredView._fields)
    if change is None:
        return view._replace(status=taken.status)
    return view._replace(
        version=row.version + 1,
        status=taken.status,
        updated_at=change.updated_at,
        finished_at=change.finished_at,
        review=change.review,
    )


def facts_of(
    row: GameRecord | NewGame, placements: int, status: str, score: int | None, at: datetime
) -> GameFacts:
    """What the subscribers of a game's moments learn of it (:mod:`api.games.hooks`)."""
    return GameFacts(
        game_id=row.id,
        player=row.player,
        player_id=row.player_id,
        challenge_date=row.challenge_date,
        sealed=row.sealed,
        computer=row.computer,
        assisted=row.assisted,
        placements=placements,
        status=status,
        score=score,
        at=at,
    )


def load_game(session: Executor, game_id: uuid.UUID, bearer: str | None = None) -> LoadedGame:
    """A game as stored and its engine state, or 404 (``bearer``: as
    :func:`api.games.store.get_game`)."""
    row = existing_game(store.get_game(session, game_id, bearer), game_id)
    return LoadedGame(row, decode(row))


def placements_of(session: Executor, game_id: uuid.UUID) -> list[PlacementRecord]:
    """A game's placements in order, or 404."""
    placements, _, _ = existing_game(store.get_history(session, game_id), game_id)
    return placements
