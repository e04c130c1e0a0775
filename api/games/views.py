"""Public views: engine state and stored rows rendered as the API's response schemas.

A game's public view (``GameOut`` as JSON) is stored with the game whenever it is written, so
that ``GET /games/{id}`` sends stored text. It is derived data, so it is stored with the
format it was rendered in, :data:`PUBLIC_VIEW_FORMAT`: a digest of ``GameOut``'s JSON schema
and of :data:`RENDERING_REVISION`. Changing the schema (a field added, renamed, retyped)
changes the format by itself; changing how values are rendered without changing the schema
needs :data:`RENDERING_REVISION` bumped. A view stored in another format is rendered again
from the game's state when it is read (see :func:`api.games.games.read_public_view`).

Views are built with ``model_construct`` from values the service made itself (the engine's
state, the row's columns): validating them again would only check our own code, and it is
the largest cost of rendering a placement. ``tests/api/test_views.py`` validates what this
module renders against the schema, on thousands of states.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from api.games.challenge_days import is_sealed
from api.schemas import (
    CardOut,
    DeckReveal,
    FlipOut,
    GameCreated,
    GameOut,
    PileOut,
    PlacementOut,
    PositionOut,
)
from api.store.repository import GameRecord, PlacementRecord
from engine import CARDS, Card, Game, PlacementResult, Position

# Bump when the rendering of a view changes without its schema changing.
RENDERING_REVISION = 1


def view_format(schema: dict[str, Any], revision: int) -> str:
    """The format name of views rendered for ``schema`` by rendering ``revision``."""
    canonical = json.dumps([schema, revision], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:32]


PUBLIC_VIEW_FORMAT = view_format(GameOut.model_json_schema(), RENDERING_REVISION)
# The format of a finished daily challenge game's view rendered while its day is open, without
# its reveal: current only until the day closes, then rendered again with the reveal (see
# api.games.challenge_days and api.games.games.read_public_view).
SEALED_VIEW_FORMAT = hashlib.sha256(f"sealed:{PUBLIC_VIEW_FORMAT}".encode()).hexdigest()[:32]


def withholds_reveal(row: GameRecord, game: Game) -> bool:
    """Whether ``game`` is over but is a challenge game whose day has not closed: its deck
    and salt would hand the day's deal to the players still to play it."""
    return game.is_over and is_sealed(row.challenge_date)


def format_of(row: GameRecord, game: Game) -> str:
    """The format to store ``game``'s view under, rendered now."""
    return SEALED_VIEW_FORMAT if withholds_reveal(row, game) else PUBLIC_VIEW_FORMAT


# Immutable response pieces, built once and shared by every response.
_CARD_OUT: dict[Card, CardOut] = {
    card: CardOut.model_construct(rank=card.rank, suit=card.suit.label, code=card.code)
    for card in CARDS
}
_CARD_OUT_BY_CODE: dict[str, CardOut] = {card.code: out for card, out in _CARD_OUT.items()}


def position_out(position: Position) -> PositionOut:
    return PositionOut.model_construct(row=position.row, col=position.col)


def card_out(card: Card) -> CardOut:
    return _CARD_OUT[card]


def game_out(row: GameRecord, game: Game, rank: int | None = None) -> GameOut:
    """The public view of a game: the engine state minus the stock order, plus the row's data.
    Stored views have no ``rank`` (it moves as other games finish): see :func:`with_rank`."""
    return GameOut.model_construct(**_game_fields(row, game), rank=rank)


def with_rank(public_json: str, rank: int) -> str:
    """A stored public view with a won game's current rank."""
    view = GameOut.model_validate_json(public_json)
    return view.model_copy(update={"rank": rank}).model_dump_json()


def game_created(row: GameRecord, game: Game, token: str) -> GameCreated:
    """A new game with its token (the only response that ever shows it)."""
    return GameCreated.model_construct(**_game_fields(row, game), rank=None, token=token)


def _game_fields(row: GameRecord, game: Game) -> dict[str, Any]:
    view = game.public_view()
    return dict(
        id=row.id,
        player=row.player,
        status=view.status.value,
        end_reason=view.end_reason.value if view.end_reason else None,
        score=view.score,
        current_card=_CARD_OUT[view.current_card] if view.current_card else None,
        stock_count=view.stock_count,
        face_down_count=view.face_down_count,
        placements_count=view.placements_count,
        piles=[
            PileOut.model_construct(
                row=pile.position.row,
                col=pile.position.col,
                cards=[_CARD_OUT[card] for card in pile.cards],
                face_up=pile.face_up,
            )
            for pile in view.piles
        ],
        legal_placements=[position_out(p) for p in view.legal_placements],
        version=row.version,
        assisted=row.assisted,
        deck_commitment=row.deck_commitment,
        reveal=DeckReveal.model_construct(deck=[card.code for card in game.deck], salt=row.salt)
        if game.is_over and not withholds_reveal(row, game)
        else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
        challenge_date=row.challenge_date,
    )


def flipped_json(result: PlacementResult) -> list[dict[str, int | bool]]:
    """What a placement flipped, as stored in ``placements.flipped``."""
    return [
        {"row": flip.position.row, "col": flip.position.col, "face_up": flip.face_up}
        for flip in result.flipped
    ]


def placement_out(row: PlacementRecord) -> PlacementOut:
    return PlacementOut.model_construct(
        number=row.number,
        row=row.row,
        col=row.col,
        card=_CARD_OUT_BY_CODE[row.card],
        flipped=[FlipOut.model_construct(**flip) for flip in row.flipped],
        status_after=row.status_after,
        created_at=row.created_at,
    )
