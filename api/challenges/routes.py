"""The daily challenge's pages: one day's deal commitment, counts, bounds and reveal."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response

from api.accounts import InvalidToken
from api.challenges.schemas import DailyChallenge
from api.challenges.service import ChallengeDay, ChallengeService
from api.core.days import closes_at, opens_at
from api.core.errors import Example, ServiceUnavailable
from api.core.openapi import problems
from api.core.params import PlayerKeyDep, service
from api.core.problems import json_response
from api.core.schemas import DeckReveal
from api.games import DAY_SCHEMA_PATTERN, ChallengeNotOpen, InvalidChallengeDate
from api.ops.errors import RateLimited
from api.ops.ratelimit import limited_by

Challenges = Annotated[ChallengeService, service("challenges")]

router = APIRouter(prefix="/challenges", tags=["daily challenge"])

# The answer depends on the key sent, if any.
_VARY = {"Vary": "Authorization"}


@router.get(
    "/today",
    response_model=DailyChallenge,
    summary="Read today's daily challenge",
    openapi_extra={"security": [{}]},  # the key is optional
    responses=problems(
        InvalidToken,
        RateLimited,
        ServiceUnavailable,
        examples={InvalidToken: Example(InvalidToken.example_detail(), "/challenges/today")},
    ),
    dependencies=[limited_by("read")],
)
async def read_today(challenges: Challenges, key: PlayerKeyDep) -> Response:
    """One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. Today is the UTC date of the service's clock."""
    return _answer(await challenges.day("today", key))


@router.get(
    "/{day}",
    response_model=DailyChallenge,
    summary="Read one day's daily challenge",
    openapi_extra={"security": [{}]},  # the key is optional
    responses=problems(
        InvalidToken,
        ChallengeNotOpen,
        InvalidChallengeDate,
        RateLimited,
        ServiceUnavailable,
        examples={
            InvalidToken: Example(InvalidToken.example_detail(), "/challenges/today"),
            InvalidChallengeDate: Example(
                "'2026-13-01' is not a day of the calendar: send 'today' or a date from "
                "2026-01-01 on as YYYY-MM-DD",
                "/challenges/2026-13-01",
            ),
        },
    ),
    dependencies=[limited_by("read")],
)
async def read_day(
    day: Annotated[
        str,
        # Declared, not validated by FastAPI: parse_day checks it and answers with its own code.
        Path(
            description="`YYYY-MM-DD` from 2026-01-01, or `today`.",
            json_schema_extra={"pattern": DAY_SCHEMA_PATTERN},
        ),
    ],
    challenges: Challenges,
    key: PlayerKeyDep,
) -> Response:
    """One deal per UTC day, the same for every player, derived from a server secret and the
    date. `deck_commitment` is published from the day's start (every challenge game of the day
    carries it); `reveal` (the deck and the salt) once the day has closed, at `closes_at`:
    `sha256(f"{salt}:{','.join(deck)}")` is then the commitment. Play it with
    `POST /games {"challenge": "daily"}` and a player's key; its board is
    `GET /leaderboard?challenge={date}`. Asked with a player's key, `your_game_id` names their
    game of the day, if they have started it. `day` is `YYYY-MM-DD` (or `today`), from
    2026-01-01 to today: a day still to come is `404 challenge_not_open` (nobody has played it
    and its commitment is not published yet)."""
    return _answer(await challenges.day(day, key))


def _answer(found: ChallengeDay) -> Response:
    deal = found.deal
    body = DailyChallenge(
        date=found.day,
        your_game_id=found.your_game_id,
        deck_commitment=deal.commitment,
        played=found.played,
        won=found.won,
        opens_at=opens_at(found.day),
        closes_at=closes_at(found.day),
        closed=found.closed,
        reveal=DeckReveal(deck=list(deal.deck), salt=deal.salt) if found.closed else None,
    )
    return json_response(body, headers=_VARY)
