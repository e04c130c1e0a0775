"""The races' request and response models, and their stream's events: one shape for a racer
(:class:`RacerEvent`) wherever it is shown."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from api.core.names import NAME_RULE, PlayerName
from api.core.schemas import DeckReveal, RequestModel, ResponseModel, WholeNumber

# A race whose lobby every person left, or nobody joined or left for a while, is ``closed``.
RaceStatus = Literal["lobby", "countdown", "running", "finished", "closed"]
# The computer racer's levels (api.races.service.LEVELS: what each plays like).
Level = Literal["beginner", "good", "best"]


class RacerIn(RequestModel):
    """Who joins. The body may be omitted (an account's key names its player)."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"player": "ana"}]}, strict=True)

    player: PlayerName | None = Field(
        default=None,
        description=f"{NAME_RULE}; the same rule (`422 invalid_player_name`) and "
        "`409 name_taken` checks as `POST /games` "
        "(omitted: the key's account, or a guest called `anonymous`). No two racers of a race "
        "have names that look alike.",
    )


class RaceCreate(RacerIn):
    """A new race: its opener (its first racer) and its rules. Values are taken as JSON
    gives them: `true`, not `"yes"`; `8`, not `"8"`."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"player": "ana", "computer": True, "level": "good"}]},
        strict=True,
    )

    computer: bool = Field(default=False, description="The computer player races too.")
    level: Level = Field(
        default="best",
        description="The computer racer's level: `beginner` (one step ahead, the placement "
        "that leaves the fewest face-down piles), `good` (the hint's search with a small "
        "budget) or `best` (the hint's search: a hint's strength).",
    )
    seats: Annotated[int, WholeNumber] = Field(
        default=4, strict=True, ge=2, le=8, description="Racers at most, the computer included."
    )
    time_limit: Annotated[int, WholeNumber] = Field(
        default=300,
        strict=True,
        ge=30,
        le=3600,
        description="Seconds from the start; unfinished games lose.",
    )
    public: bool = Field(
        default=False,
        description="Listed among the open races (`GET /races/open`), joinable by anyone, "
        "while it is in its lobby with a free seat; `false`: joined by its link only.",
    )


class YourGame(ResponseModel):
    """Your game of the race: play it through `POST /games/{id}/placements` with `token`."""

    id: uuid.UUID
    token: str = Field(
        description="What authorises its placements: the credential this request was sent with "
        "(a guest's racer token, or the account's key)."
    )


class RacerEvent(ResponseModel):
    """A racer as a race's stream shows it, counts only (never a card): `event: joined`
    and `left` (in the lobby), `progress` (after its placements) and `finished` (its game is
    over; its `rank` comes with the race's `result`)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "racer": 2,
                    "name": "ana",
                    "registered": True,
                    "computer": False,
                    "state": "in_progress",
                    "placements": 12,
                    "face_down": 2,
                    "cards_left": 27,
                    "score": None,
                    "rank": None,
                    "game_id": None,
                }
            ]
        }
    )

    racer: int = Field(description="The racer's number in the race, from 1 (the opener).")
    name: str
    registered: bool = Field(
        description="An account races (its player has a page, `GET /players/{name}`)."
    )
    computer: bool = Field(description="The computer player.")
    state: Literal["waiting", "in_progress", "won", "lost"] = Field(
        description="`waiting` until the race starts, then its game's status."
    )
    placements: int = Field(description="Placements made.")
    face_down: int = Field(description="Piles with a face-down top card.")
    cards_left: int = Field(description="Cards left in the stock.")
    score: int | None = Field(description="A won game's score.")
    rank: int | None = Field(description="Its place, once the race is over.")
    game_id: uuid.UUID | None = Field(
        description="Its game, once the race is over (public from then on: its replay); null "
        "before."
    )


class CountdownEvent(ResponseModel):
    """`event: countdown`: the race starts at `starts_at` (each racer's game is dealt then)
    and its time runs out at `ends_at`. `event: started`, the same shape: the games are
    dealt (`starts_at` is when), each racer's `your_game` is in `GET /races/{id}`."""

    starts_at: datetime
    ends_at: datetime


class RaceResultEvent(ResponseModel):
    """`event: result`: the race is over; its racers in their final order, and the deal's
    reveal (check it against the race's `deck_commitment`). The stream stays open for a
    `rematch`."""

    racers: list[RacerEvent]
    deck: list[str] = Field(description="The deal's card codes, first drawn first.")
    salt: str


class RematchEvent(ResponseModel):
    """`event: rematch`: a racer opened the next race for the same racers; they are in its
    lobby with the same credentials. The stream closes after it."""

    next_race: uuid.UUID


class RaceClosedEvent(ResponseModel):
    """`event: closed`: the race's lobby had no join or leave for
    `FOURSQUARE_RACE_LOBBY_MINUTES` (30 by default) and the service closed it: nobody starts
    it or joins it any more. The stream closes after it."""

    reason: Literal["idle"] = Field(description="Why: `idle`, nobody came or went for a while.")


class RaceOut(ResponseModel):
    """A race as anyone may see it (counts only), and the asker's own racer and game."""

    id: uuid.UUID
    status: RaceStatus
    seats: int
    time_limit: int = Field(description="Seconds from the start.")
    level: Level | None = Field(description="The computer racer's level, if it races.")
    deck_commitment: str = Field(
        description="`sha256(salt + ':' + deck)` of the shared deal, as a game's; its deck and "
        "salt are in `reveal` once the race is over."
    )
    public: bool = Field(description="Listed among the open races while in its lobby.")
    created_at: datetime
    starts_at: datetime | None = Field(description="Set by the start: the countdown's end.")
    ends_at: datetime | None = Field(description="When unfinished games end, lost.")
    finished_at: datetime | None
    next_race: uuid.UUID | None = Field(description="The rematch, once someone asked for it.")
    racers: list[RacerEvent] = Field(
        description="In the race's ranking once it is finished (a win before every loss, the "
        "higher score first; among losses the game that went further; then the earlier end), "
        "else in the order they joined."
    )
    you: int | None = Field(description="Your racer's number, if the credential sent is one's.")
    your_game: YourGame | None = Field(description="Your game, once the race has started.")
    reveal: DeckReveal | None = Field(description="The shared deal, once the race is over.")


class RaceCreated(RaceOut):
    """A race just opened or joined."""

    racer_token: str | None = Field(
        description="A guest racer's credential (send it as `Authorization: Bearer <token>`); "
        "null for an account, which uses its key. Shown only once."
    )


class PlayerRaceOut(ResponseModel):
    race_id: uuid.UUID
    status: RaceStatus
    created_at: datetime
    racers: int
    rank: int | None = Field(description="The player's place once the race is finished.")


class PlayerRaces(ResponseModel):
    """A player's race figures, and their races, newest first (the last 100)."""

    races_played: int = Field(description="Races finished.")
    races_won: int = Field(
        description="Races finished first, against another racer at least (the ranking: "
        "`GET /races/{id}`)."
    )
    races: list[PlayerRaceOut]


class OpenRaceOut(ResponseModel):
    """A public race in its lobby with a free seat: what a joiner needs to choose it (join
    with `POST /races/{id}/racers`). `event: opened` and `changed` on `GET /races/open/events`
    carry the same shape."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "id": "6f1c2b9e-3a4d-4e5f-8a7b-1c2d3e4f5a6b",
                    "seats": 4,
                    "racers": 2,
                    "names": ["ana", "computer"],
                    "time_limit": 300,
                    "level": "good",
                    "created_at": "2026-12-05T20:04:14Z",
                }
            ]
        }
    )

    id: uuid.UUID
    seats: int = Field(description="Racers at most, the computer included.")
    racers: int = Field(description="Racers in its lobby now (fewer than `seats`).")
    names: list[str] = Field(description="Its racers' names, in the order they joined.")
    time_limit: int = Field(description="Seconds from the start.")
    level: Level | None = Field(description="The computer racer's level, if it races.")
    created_at: datetime


class OpenRaces(ResponseModel):
    """A page of the open races, newest first."""

    races: list[OpenRaceOut]
    next_cursor: str | None = Field(
        description="Pass it back as `cursor` for the next page; null on the last."
    )


class OpenRaceClosed(ResponseModel):
    """`event: closed` on `GET /races/open/events`: the race left the list (it started, is
    full, every person left its lobby or it was closed idle), or fell out of the stream's
    newest ones."""

    id: uuid.UUID
