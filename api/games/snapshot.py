"""A game's snapshot: what anyone may see of it, stored with the game for fast reads.

The snapshot is a *storage format*, not a response: the public part of the engine's state
(piles, current card, counts, legal placements, and the deck with its salt once they are
revealed) in compact form, cards as their codes. Every write of a game stores a new one, made
from the engine state it stores, so that ``GET /games/{id}`` reads one row and never decodes
the engine state; the service renders responses from it (:func:`api.games.records.game_out`), so a
change to a response model never reaches a stored row.

It is derived data, so it is stored with its format (:data:`FORMAT`): a row whose snapshot is
of another format (an older one, or none: games stored before snapshots were) is given a new
snapshot, made from its engine state, when it is read. Change :data:`FORMAT` whenever the
shape or the meaning of a snapshot changes.

A finished daily challenge game whose day is still open is stored under :data:`SEALED_FORMAT`,
without its reveal: the deck would hand the day's deal to the players still to play it. That
format is current only until the day closes; the first read after that makes the snapshot
again, with the reveal.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine import Game

FORMAT = "snapshot-2"
SEALED_FORMAT = "snapshot-2-sealed"
CURRENT = (FORMAT, SEALED_FORMAT)  # the formats :class:`GameSnapshot` reads


class _Stored(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PileSnapshot(_Stored):
    row: int
    col: int
    cards: list[str]  # card codes, bottom first
    face_up: bool


class Reveal(_Stored):
    deck: list[str]  # card codes, first drawn first
    salt: str


class GameSnapshot(_Stored):
    """The public state of a game at one version."""

    status: str
    end_reason: str | None
    score: int | None
    current_card: str | None
    stock_count: int
    face_down_count: int
    placements_count: int
    piles: list[PileSnapshot]
    legal_placements: list[tuple[int, int]]
    reveal: Reveal | None  # once the game is over, unless it is sealed


def take(game: Game, salt: str, *, sealed: bool) -> GameSnapshot:
    """The snapshot of ``game``; ``sealed`` withholds the reveal of a finished game (a daily
    challenge game whose day is still open)."""
    view = game.public_view()
    return GameSnapshot(
        status=view.status.value,
        end_reason=view.end_reason.value if view.end_reason else None,
        score=view.score,
        current_card=view.current_card.code if view.current_card else None,
        stock_count=view.stock_count,
        face_down_count=view.face_down_count,
        placements_count=view.placements_count,
        piles=[
            PileSnapshot(
                row=pile.position.row,
                col=pile.position.col,
                cards=[card.code for card in pile.cards],
                face_up=pile.face_up,
            )
            for pile in view.piles
        ],
        legal_placements=[(position.row, position.col) for position in view.legal_placements],
        reveal=Reveal(deck=[card.code for card in game.deck], salt=salt)
        if game.is_over and not sealed
        else None,
    )


def format_of(game: Game, *, sealed: bool) -> str:
    """The format a snapshot of ``game`` is stored under."""
    return SEALED_FORMAT if sealed and game.is_over else FORMAT


def dumps(snapshot: GameSnapshot) -> str:
    return snapshot.model_dump_json()


def loads(text: str) -> GameSnapshot:
    return GameSnapshot.model_validate_json(text)
