"""The moderators' endpoints: the queue of what the fair-play review held, its evidence, and
the decisions that clear or confirm it. An operator credential only (a player's key gets
``403 not_a_moderator``); moderators get no web page."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Depends, Query, Response

from api.accounts import MissingToken, PlayerNotFound
from api.core.errors import InvalidRequest, PayloadTooLarge, ServiceUnavailable
from api.core.openapi import problems
from api.core.params import BearerSecret, service
from api.core.problems import json_response
from api.fairplay import schemas
from api.fairplay.errors import NotAModerator, NotFlagged, NotMarked, NotReviewed
from api.fairplay.service import FairPlayService
from api.games import GameNotFound
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by

operator_key = BearerSecret(
    scheme_name="OperatorKey",
    description="An operator credential: a key of `FOURSQUARE_OPERATOR_KEYS`.",
    auto_error=False,
)


def _operator(key: Annotated[str | None, Depends(operator_key)]) -> str:
    if key is None:
        raise MissingToken("send an operator key as 'Authorization: Bearer <key>'")
    return key


OperatorKey = Annotated[str, Depends(_operator)]
FairPlay = Annotated[FairPlayService, service("fairplay")]

if TYPE_CHECKING:
    from sqlalchemy import Row  # the store's rows, read here by column name

router = APIRouter(prefix="/moderation", tags=["moderation"])

_REFUSALS = (MissingToken, NotAModerator, RateLimited, ServiceUnavailable)


def review_out(review: Row[Any], decisions: list[Row[Any]] | None = None) -> schemas.Review:
    """A review as stored (``Row``: its columns by name), in the model moderators read."""
    return schemas.Review.model_validate(
        {
            **review._mapping,
            "registered": review.player_id is not None,
            "placements_count": review.placements,
            "evidence": json.loads(review.evidence) if review.evidence else None,
            "decisions": [d._mapping for d in decisions or []],
        }
    )


def account_out(
    name: str,
    account: Row[Any] | None,
    reviews: list[Row[Any]],
    decisions: list[Row[Any]],
) -> schemas.Account:
    return schemas.Account(
        player=name,
        state=account.state if account else None,
        flagged=account.flagged if account else None,
        marked_at=account.marked_at if account else None,
        decided_at=account.decided_at if account else None,
        reviews=[review_out(review) for review in reviews],
        decisions=[schemas.Decision.model_validate(d._mapping) for d in decisions],
    )


@router.get(
    "/queue",
    response_model=schemas.Queue,
    summary="What the fair-play review holds for a moderator",
    responses=problems(InvalidRequest, *_REFUSALS),
    dependencies=[limited_by("read")],
)
async def read_moderation_queue(
    key: OperatorKey,
    fairplay: FairPlay,
    limit: Annotated[int, Query(ge=1, le=200, description="At most this many of each.")] = 50,
) -> Response:
    """Flagged games and marked accounts that no moderator has decided on, oldest first,
    with the review's evidence, and reviews that could not be computed."""
    games, accounts, stuck = await fairplay.queue(key, limit)
    players = [
        schemas.Account(
            player=str(account.player_id),
            state=account.state,
            flagged=account.flagged,
            marked_at=account.marked_at,
            decided_at=account.decided_at,
            reviews=[],
            decisions=[],
        )
        for account in accounts
    ]
    names = await fairplay.names([account.player_id for account in accounts])
    players = [p.model_copy(update={"player": names.get(p.player, p.player)}) for p in players]
    out = schemas.Queue(
        games=[review_out(review) for review in games],
        players=players,
        stuck=[review_out(review) for review in stuck],
    )
    return json_response(out)


@router.get(
    "/games/{game_id}",
    response_model=schemas.Review,
    summary="Read a game's fair-play review",
    responses=problems(GameNotFound, NotReviewed, *_REFUSALS),
    dependencies=[limited_by("read")],
)
async def read_game_review(game_id: str, key: OperatorKey, fairplay: FairPlay) -> Response:
    """A won game's review: its state, verdict, evidence (agreement with each level of the
    computer player, decisions counted, value lost, timing) and every moderator's decision."""
    review, decisions = await fairplay.game(key, game_id)
    return json_response(review_out(review, decisions))


@router.post(
    "/games/{game_id}",
    response_model=schemas.Review,
    summary="Clear or confirm a flagged game",
    responses=problems(
        GameNotFound, NotReviewed, NotFlagged, PayloadTooLarge, InvalidRequest, *_REFUSALS
    ),
    dependencies=[limited_by("place")],
)
async def decide_game_review(
    game_id: str, body: schemas.DecisionIn, key: OperatorKey, fairplay: FairPlay
) -> Response:
    """`clear`: the flagged game goes back on the public boards (unless its account is
    marked: then when the account is cleared); `confirm`: it stays off. The decision is
    stored with the moderator's name and the time; a later decision may reverse it."""
    review, decisions = await fairplay.decide_game(key, game_id, body.action, body.note)
    return json_response(review_out(review, decisions))


@router.get(
    "/players/{name}",
    response_model=schemas.Account,
    summary="Read an account's fair-play standing",
    responses=problems(PlayerNotFound, *_REFUSALS),
    dependencies=[limited_by("read")],
)
async def read_account_review(name: str, key: OperatorKey, fairplay: FairPlay) -> Response:
    """Whether the account is marked, its latest reviews, and every moderator's decision."""
    player, (account, reviews, decisions) = await fairplay.account(key, name)
    return json_response(account_out(player, account, reviews, decisions))


@router.post(
    "/players/{name}",
    response_model=schemas.Account,
    summary="Clear or confirm a marked account",
    responses=problems(PlayerNotFound, NotMarked, PayloadTooLarge, InvalidRequest, *_REFUSALS),
    dependencies=[limited_by("place")],
)
async def decide_account_review(
    name: str, body: schemas.DecisionIn, key: OperatorKey, fairplay: FairPlay
) -> Response:
    """`clear`: the account is no longer marked, and its games go back on the boards but
    those flagged on their own; `confirm`: it stays marked, all its games off the boards."""
    player, (account, reviews, decisions) = await fairplay.decide_account(
        key, name, body.action, body.note
    )
    return json_response(account_out(player, account, reviews, decisions))
