"""The games' responses, rendered from what the service stored: a game's public columns and
its snapshot (:mod:`api.games.snapshot`), a placement's row.

Rendering builds plain values and lets Pydantic's core (Rust) validate them into the response
models and serialise them: for a game's dozens of small objects that is about half the cost
of building each model in Python with ``model_construct``. The values are the service's own,
so the validation never refuses one; ``tests/api/test_views.py`` renders thousands of states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from api.core.errors import ApiError
from api.core.models import PlacementRecord
from api.core.problems import PROBLEM_MEDIA_TYPE, api_error_response
from api.games import etags
from api.games.records import Created, Placed, PublicGame
from api.games.schemas import (
    CardOut,
    GameCreated,
    GameOut,
    PlacementCreated,
    PlacementOut,
    PositionOut,
)
from api.idempotency.service import Answer, Rendering
from engine import CARDS
from engine.cards import DECK_SIZE

# Every card as a response value, built once.
_CARDS: dict[str, dict[str, Any]] = {
    card.code: {"rank": card.rank, "suit": card.suit.label, "code": card.code} for card in CARDS
}


def _game_values(game: PublicGame) -> dict[str, Any]:
    taken = game.snapshot
    return {
        "id": game.id,
        "player": game.player,
        "status": taken.status,
        "end_reason": taken.end_reason,
        "score": taken.score,
        "current_card": _CARDS[taken.current_card] if taken.current_card else None,
        "stock_count": taken.stock_count,
        "face_down_count": taken.face_down_count,
        "placements_count": taken.placements_count,
        "piles": [
            {
                "row": pile.row,
                "col": pile.col,
                "cards": [_CARDS[code] for code in pile.cards],
                "face_up": pile.face_up,
            }
            for pile in taken.piles
        ],
        "legal_placements": [{"row": row, "col": col} for row, col in taken.legal_placements],
        "version": game.version,
        "assisted": game.assisted,
        "deck_commitment": game.deck_commitment,
        "reveal": {"deck": taken.reveal.deck, "salt": taken.reveal.salt} if taken.reveal else None,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
        "finished_at": game.finished_at,
        "challenge_date": game.challenge_date,
        "rank": game.rank,
    }


def game_out(game: PublicGame) -> GameOut:
    return GameOut.model_validate(_game_values(game))


def game_created(created: Created) -> GameCreated:
    return GameCreated.model_validate({**_game_values(created.game), "token": created.token})


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


def created_answer(created: Created) -> Answer:
    return Answer(
        201,
        game_created(created).model_dump_json().encode(),
        {"Location": f"/games/{created.game.id}", "ETag": etags.etag(created.game.version)},
        secret=created.token,
    )


def placed_answer(placed: Placed) -> Answer:
    body = PlacementCreated(placement=placement_out(placed.placement), game=game_out(placed.game))
    return Answer(201, body.model_dump_json().encode(), {"ETag": etags.etag(placed.game.version)})


def error_answer(instance: str) -> Callable[[ApiError], Answer]:
    """How a refusal of a request on ``instance`` is answered (and stored for its retries)."""

    def render(error: ApiError) -> Answer:
        rendered = api_error_response(error, instance)
        return Answer(error.status, bytes(rendered.body), dict(error.headers), PROBLEM_MEDIA_TYPE)

    return render


CREATION = Rendering(created_answer, error_answer("/games"))


def placement_rendering(game_id: str) -> Rendering[Placed]:
    return Rendering(placed_answer, error_answer(f"/games/{game_id}/placements"))


def card_out(code: str) -> CardOut:
    return CardOut.model_validate(_CARDS[code])


def position_out(cell: tuple[int, int]) -> PositionOut:
    return PositionOut(row=cell[0], col=cell[1])
