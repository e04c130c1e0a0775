"""The tournaments' request and response models, and their stream's events: one shape for an
entrant (:class:`Entry`) wherever it is shown, never with a card, and with a game id only
once the tournament is finished."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AwareDatetime,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
)

from api.core.names import NAME_RULE, PlayerName
from api.core.schemas import DeckReveal, RequestModel, ResponseModel, WholeNumber
from api.games import GAME_EXAMPLE

TournamentStatus = Literal["announced", "running", "ending", "finished", "cancelled"]
STATUSES: tuple[str, ...] = ("announced", "running", "ending", "finished", "cancelled")


def _plausible(value: datetime) -> datetime:
    # A time the database stores as UTC, far from the calendar's edges (a year 1 with an
    # offset east of UTC has no UTC time at all); the document's pattern says the same.
    if not 2000 <= value.year <= 8999:
        raise ValueError("a tournament's times are in the years 2000 to 8999")
    return value.astimezone(UTC)


Time = Annotated[
    AwareDatetime,
    AfterValidator(_plausible),
    WithJsonSchema(
        {"type": "string", "format": "date-time", "pattern": r"^[2-8][0-9]{3}-"}, mode="validation"
    ),
]

TournamentName = Annotated[str, StringConstraints(min_length=1, max_length=64)]
# The bounds before the whole-number check, so that the document states them on the nullable
# fields too (after it, the schema of a union lost them).
Deals = Annotated[int, Field(strict=True, ge=1, le=10), WholeNumber]
Cap = Annotated[int, Field(strict=True, ge=1, le=1_000_000), WholeNumber]

_STARTS = "2026-12-05T20:00:00Z"
_ENDS = "2026-12-05T21:00:00Z"
_ID = "5d0c2b1e-8a7f-4c3b-9e2d-1f0a6b5c4d3e"


class TournamentCreate(RequestModel):
    """A new tournament (an operator's). A start in the past starts it at once."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Friday cup",
                    "starts_at": _STARTS,
                    "ends_at": _ENDS,
                    "deals": 5,
                    "guests": True,
                    "max_entrants": 64,
                }
            ]
        },
    )

    name: TournamentName
    starts_at: Time = Field(description="When its deals may be played (RFC 3339).")
    ends_at: Time = Field(
        description="When it ends: after `starts_at` (`422 invalid_tournament` otherwise)."
    )
    deals: Deals = Field(description="How many deals each entrant plays, in order, each once.")
    guests: bool = Field(default=False, strict=True, description="Guests may enter (by name).")
    max_entrants: Cap | None = Field(default=None, description="A cap on entrants (null: none).")


class TournamentPatch(RequestModel):
    """Any of a new tournament's fields, while it is announced. Changing `deals` commits new
    deals (the commitments change)."""

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"deals": 3, "max_entrants": None}]}
    )

    name: TournamentName | None = None
    starts_at: Time | None = None
    ends_at: Time | None = None
    deals: Deals | None = None
    guests: bool | None = Field(default=None, strict=True)
    max_entrants: Cap | None = Field(default=None, description="null: no cap.")


class EntrantIn(RequestModel):
    """Who joins: a guest's name (where the tournament takes guests); an account sends its
    key and may omit the body."""

    model_config = ConfigDict(extra="forbid", json_schema_extra={"examples": [{"name": "ana"}]})

    name: PlayerName | None = Field(
        default=None,
        description=f"A guest's name: {NAME_RULE} (`422 invalid_player_name`); an account's "
        "name is its own (`409 name_taken` for a guest who takes one).",
    )


class Entry(ResponseModel):
    """An entrant's public progress: never a card, a game id (before the end) or a place
    (before the final standings)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "number": 3,
                    "name": "ana",
                    "account": True,
                    "rank": 1,
                    "deals_played": 2,
                    "score": 14,
                    "cards": 52,
                    "finished_at": "2026-12-05T20:12:31Z",
                    "left": False,
                    "place": None,
                    "games": None,
                }
            ]
        }
    )

    number: int = Field(description="The entrant's number, from 1 in joining order.")
    name: str
    account: bool = Field(description="An account's entry (its player has a page).")
    rank: int | None = Field(
        description="Its rank in the standings: 1 + the entrants strictly ahead (equal score, "
        "cards and last finish share a rank)."
    )
    deals_played: int
    score: int = Field(
        description="The sum of its finished deals' scores (a lost deal 0); in the final "
        "standings, a win the fair-play review flagged scores 0."
    )
    cards: int = Field(description="Cards placed in its finished deals: the first tie-break.")
    finished_at: datetime | None = Field(
        description="When its last finished deal ended: the second tie-break (the earlier)."
    )
    left: bool = Field(description="It left the tournament while it ran: it plays no more.")
    place: int | None = Field(
        description="Its final place, once the tournament is finished (null for an entrant "
        "who played no deal)."
    )
    games: list[uuid.UUID] | None = Field(
        description="Its games, one per deal played, in deal order, once the tournament is "
        "finished (their replays); null before."
    )


class YourEntry(Entry):
    """Your own entry: what you play next."""

    next_deal: int | None = Field(
        description="The deal `POST /tournaments/{id}/games` deals you next (null: all played, "
        "you left, or the tournament is not running)."
    )
    current_game: uuid.UUID | None = Field(
        description="Your game of the deal in progress (only you see it)."
    )


class Winner(ResponseModel):
    place: int
    name: str


class TournamentOut(ResponseModel):
    """A tournament as anyone may see it; `you` for an entrant's credential."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": _ID,
                    "name": "Friday cup",
                    "status": "running",
                    "starts_at": _STARTS,
                    "ends_at": _ENDS,
                    "deals": 2,
                    "guests": True,
                    "max_entrants": None,
                    "entrants": 12,
                    "schedule_id": None,
                    "created_at": "2026-12-05T19:00:00Z",
                    "finished_at": None,
                    "commitments": ["3f5a" + "0" * 60, "9c1d" + "0" * 60],
                    "reveal": None,
                    "winners": [],
                    "you": None,
                }
            ]
        }
    )

    id: uuid.UUID
    name: str
    status: TournamentStatus = Field(
        description="`announced` (until `starts_at`), `running` (until `ends_at`), `ending` "
        "(its wins await the fair-play review), `finished` (final standings) or `cancelled`."
    )
    starts_at: datetime
    ends_at: datetime
    deals: int
    guests: bool
    max_entrants: int | None
    entrants: int
    schedule_id: uuid.UUID | None
    created_at: datetime
    finished_at: datetime | None
    commitments: list[str] = Field(
        description="Each deal's `sha256(salt + ':' + deck)`, in deal order, as a game's "
        "`deck_commitment`: published from the announcement, checked against `reveal`."
    )
    reveal: list[DeckReveal] | None = Field(
        description="Each deal's deck and salt, once the tournament has ended."
    )
    winners: list[Winner] = Field(description="The first three, once it is finished.")
    you: YourEntry | None = Field(description="Your entry, if the credential sent is one's.")


class TournamentPage(ResponseModel):
    tournaments: list[TournamentOut]
    next: str | None = Field(description="The cursor of the next page (null: no more).")


class Joined(ResponseModel):
    """An entry just made."""

    entry: YourEntry
    token: str | None = Field(
        description="A guest's credential for this tournament, its games and its next deal "
        "(`Authorization: Bearer <token>`); null for an account, which uses its key. Shown "
        "only here (and to a replay with the same `Idempotency-Key`)."
    )


class DealDealt(ResponseModel):
    """Your game of your next deal: play it through `POST /games/{game_id}/placements`."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {"deal": 1, "game_id": GAME_EXAMPLE["id"], "game": {**GAME_EXAMPLE, "token": "t"}}
            ]
        }
    )

    deal: int
    game_id: uuid.UUID
    game: dict[str, Any] = Field(
        description="The game as `POST /games` answers it; its `token` is the credential that "
        "plays it (a guest's tournament token, or the game's own for an account, whose key "
        "plays it too)."
    )


class Standings(ResponseModel):
    status: Literal["provisional", "final"] = Field(
        description="`provisional` (every finished deal counts) until the final standings "
        "(only wins the fair-play review found clean count)."
    )
    entries: list[Entry]
    next: str | None = Field(description="The cursor of the next page (null: no more).")
    total: int = Field(description="Entrants in all.")


# ---------------------------------------------------------------- the stream's events


class EntryEvent(ResponseModel):
    """`event: joined` or `left`: an entrant joined, or left."""

    entry: Entry


class TimesEvent(ResponseModel):
    """`event: announced` (it is announced: its times) or `started` (its deals may be
    played)."""

    starts_at: datetime
    ends_at: datetime


class DealFinishedEvent(ResponseModel):
    """`event: deal_finished`: an entrant's deal is over; its standing now (never a card)."""

    number: int = Field(description="The entrant's number.")
    name: str
    deal: int
    deals_played: int
    score: int
    cards: int


class StandingsEvent(ResponseModel):
    """`event: standings`: the first ten, after any change."""

    top: list[Entry]


class EndedEvent(ResponseModel):
    """`event: ended`: time is up; the final standings await the fair-play review."""

    status: Literal["ending"] = "ending"


class FinalEvent(ResponseModel):
    """`event: final`: the final standings are written (the stream closes after it)."""

    winners: list[Winner]


class CancelledEvent(ResponseModel):
    """`event: cancelled`: an operator cancelled it before its start (the stream closes)."""

    cancelled_at: datetime


# ---------------------------------------------------------------- a player's tournaments


class TournamentPlaces(ResponseModel):
    """A player's trophies: finished tournaments they played a deal of, and their places."""

    first: int
    second: int
    third: int
    played: int


class PlayerTournamentOut(ResponseModel):
    id: uuid.UUID
    name: str
    ends_at: datetime
    place: int
    entrants: int
    score: int


class PlayerTournaments(ResponseModel):
    tournaments: list[PlayerTournamentOut]
    next: str | None
