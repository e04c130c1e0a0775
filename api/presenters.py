"""Turning engine state and stored rows into response schemas."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from api.repository import GameRecord, PlacementRecord
from api.schemas import (
    CardOut,
    DeckReveal,
    FlipOut,
    GameCreated,
    GameOut,
    PlacementOut,
    PositionOut,
)
from engine import CARDS, Card, Game, PlacementResult, Position
from engine.grid import CELL_OF, POSITION

# Immutable response pieces, built once and shared by every response.
_CARD_OUT: dict[Card, CardOut] = {
    card: CardOut(rank=card.rank, suit=card.suit.label, code=card.code)  # type: ignore[arg-type]
    for card in CARDS
}
_CARD_OUT_BY_CODE: dict[str, CardOut] = {card.code: out for card, out in _CARD_OUT.items()}
_CARD_OUT_BY_INDEX: list[CardOut] = [_CARD_OUT[card] for card in CARDS]
_POSITION_OUT: dict[Position, PositionOut] = {
    position: PositionOut(row=position.row, col=position.col)
    for position in POSITION
    if position is not None
}
assert len(_POSITION_OUT) == len(CELL_OF)


def position_out(position: Position) -> PositionOut:
    return _POSITION_OUT[position]


def card_out(card: Card) -> CardOut:
    return _CARD_OUT[card]


def card_out_from_code(code: str) -> CardOut:
    return _CARD_OUT_BY_CODE[code]


def game_out(row: GameRecord, game: Game) -> GameOut:
    """The public view of a game: the engine state minus the stock order, plus the row's data."""
    return GameOut(**_game_fields(row, game))


def game_json(row: GameRecord, game: Game) -> str:
    """:func:`game_out` as JSON, what ``games.public_json`` keeps, written directly.

    Every placement renders it, and validating a ``GameOut`` of values the service made
    itself and then serialising it cost more CPU than any other part of planning a placement
    (measured with callgrind: 388,000 instructions, against about 100,000 this way). The text
    is the same, byte for byte, as ``game_out(row, game).model_dump_json()``: its pieces are
    rendered by Pydantic (cards, positions, strings, timestamps) and put together in the
    model's field order; ``tests/api/test_public_json.py`` compares the two on thousands of
    states.
    """
    view = game.public_view()
    piles = ",".join(
        f'{{"row":{pile.position.row},"col":{pile.position.col},"cards":['
        + ",".join([_CARD_JSON[card.index] for card in pile.cards])
        + ('],"face_up":true}' if pile.face_up else '],"face_up":false}')
        for pile in view.piles
    )
    legal = ",".join([_POSITION_JSON[position] for position in view.legal_placements])
    current = _CARD_JSON[view.current_card.index] if view.current_card else "null"
    reveal = (
        _REVEAL.dump_json(
            DeckReveal(deck=[card.code for card in game.deck], salt=row.salt)
        ).decode()
        if game.is_over
        else "null"
    )
    return (
        f'{{"id":"{row.id}","player":{_json_text(row.player)},'
        f'"status":"{view.status.value}",'
        f'"end_reason":{_json_text(view.end_reason.value) if view.end_reason else "null"},'
        f'"score":{"null" if view.score is None else view.score},'
        f'"current_card":{current},"stock_count":{view.stock_count},'
        f'"face_down_count":{view.face_down_count},'
        f'"placements_count":{view.placements_count},"piles":[{piles}],'
        f'"legal_placements":[{legal}],"version":{row.version},'
        f'"assisted":{"true" if row.assisted else "false"},'
        f'"deck_commitment":{_json_text(row.deck_commitment)},"reveal":{reveal},'
        f'"created_at":{_json_time(row.created_at)},'
        f'"updated_at":{_json_time(row.updated_at)},'
        f'"finished_at":{"null" if row.finished_at is None else _json_time(row.finished_at)}}}'
    )


_TEXT: TypeAdapter[str] = TypeAdapter(str)
_TIME: TypeAdapter[datetime] = TypeAdapter(datetime)
_REVEAL: TypeAdapter[DeckReveal] = TypeAdapter(DeckReveal)
_CARD_JSON: list[str] = [out.model_dump_json() for out in _CARD_OUT_BY_INDEX]
_POSITION_JSON: dict[Position, str] = {
    position: out.model_dump_json() for position, out in _POSITION_OUT.items()
}


def _json_text(value: str) -> str:
    return _TEXT.dump_json(value).decode()


def _json_time(value: datetime) -> str:
    return _TIME.dump_json(value).decode()


def placement_created_json(placement: PlacementRecord, public_json: str) -> bytes:
    """A ``PlacementCreated`` body around the game's stored JSON (not rendered twice)."""
    placement_json = placement_out(placement).model_dump_json()
    return f'{{"placement":{placement_json},"game":{public_json}}}'.encode()


def game_created(row: GameRecord, game: Game, token: str) -> GameCreated:
    """A new game with its token (the only response that ever shows it)."""
    return GameCreated(**_game_fields(row, game), token=token)


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
            # Plain dicts: GameOut validates them in one pass (much cheaper than a model each).
            {
                "row": pile.position.row,
                "col": pile.position.col,
                "cards": [_CARD_OUT_BY_INDEX[card.index] for card in pile.cards],
                "face_up": pile.face_up,
            }
            for pile in view.piles
        ],
        legal_placements=[_POSITION_OUT[p] for p in view.legal_placements],
        version=row.version,
        assisted=row.assisted,
        deck_commitment=row.deck_commitment,
        reveal=DeckReveal(deck=[card.code for card in game.deck], salt=row.salt)
        if game.is_over
        else None,
        created_at=row.created_at,
        updated_at=row.updated_at,
        finished_at=row.finished_at,
    )


def flipped_json(result: PlacementResult) -> list[dict[str, int | bool]]:
    """What a placement flipped, as stored in ``placements.flipped``."""
    return [
        {"row": flip.position.row, "col": flip.position.col, "face_up": flip.face_up}
        for flip in result.flipped
    ]


def placement_out(row: PlacementRecord) -> PlacementOut:
    return PlacementOut(
        number=row.number,
        row=row.row,
        col=row.col,
        card=_CARD_OUT_BY_CODE[row.card],
        flipped=[FlipOut(**flip) for flip in row.flipped],
        status_after=row.status_after,  # type: ignore[arg-type]
        created_at=row.created_at,
    )
