"""The leaderboards' response models: pages of a board and a game's place on it."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from api.core.schemas import ResponseModel


class LeaderboardEntry(ResponseModel):
    rank: int = Field(description="Position on the board: 1 is the best score, earliest finish.")
    player: str
    score: int
    game_id: uuid.UUID
    finished_at: datetime
    assisted: bool = Field(description="The player asked for hints in this game.")
    registered: bool = Field(
        description="The game was played with an account, which `GET /players/{name}` shows; "
        "false for a guest's game (guests have no player page)."
    )


PeriodName = Literal["all", "day", "week"]


# A board's window, the last fields of a page of it (after the entries, as a reader looks for
# them): aliases rather than a base class, whose fields Pydantic would list first.
Period = Annotated[
    PeriodName | None,
    Field(
        description="`all`, `day` (a UTC calendar day) or `week` (an ISO week, Monday to "
        "Sunday, UTC); null on a daily challenge's board."
    ),
]
StartsOn = Annotated[date | None, Field(description="The window's first day; null for `all`.")]
EndsOn = Annotated[
    date | None, Field(description="The window's last day (inclusive); null for `all`.")
]
PerPlayer = Annotated[
    Literal["best"] | None,
    Field(
        description="`best`: each player's best game only (ties to the earlier finish); "
        "null: every won game."
    ),
]


class Leaderboard(ResponseModel):
    """One page of won games, best score first, earlier finish first on ties."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "entries": [
                        {
                            "rank": 1,
                            "player": "ana",
                            "score": 21,
                            "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "finished_at": "2026-11-29T16:31:02.000000Z",
                            "assisted": False,
                            "registered": True,
                        }
                    ],
                    "next_cursor": "eyJzIjotMjEsImYiOiIyMDI2LTExLTI5VDE2OjMxOjAyIn0",
                    "period": "week",
                    "starts_on": "2026-11-23",
                    "ends_on": "2026-11-29",
                    "per_player": None,
                    "assisted_left_out": 3,
                }
            ]
        }
    )

    entries: list[LeaderboardEntry]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    period: Period = None
    starts_on: StartsOn = None
    ends_on: EndsOn = None
    per_player: PerPlayer = None
    assisted_left_out: int | None = Field(
        default=None,
        description="How many more entries this board has with `include_assisted=true` (won "
        "games whose player asked for hints, or with `per_player=best` players whose every win "
        "did): why a board may be empty or short. Null when assisted games are included, and "
        "on a daily challenge's board (played without hints).",
    )
    held_for_review: int | None = Field(
        default=None,
        description="How many wins of this board's days the fair-play review keeps off it: "
        "being checked (usually for less than a minute), or held because their placements "
        "followed the computer player's choices (docs/fairplay.md). Null on a daily "
        "challenge's board.",
    )


class Around(ResponseModel):
    """A won game's place on a board: its rank and the entries just above and below it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "rank": 42,
                    "size": 1203,
                    "entries": [
                        {
                            "rank": 41,
                            "player": "bob",
                            "score": 15,
                            "game_id": "5f0c1e9a-8d7b-4c2e-a1f3-9b8e7d6c5a40",
                            "finished_at": "2026-11-29T09:12:40.000000Z",
                            "assisted": False,
                            "registered": True,
                        },
                        {
                            "rank": 42,
                            "player": "ana",
                            "score": 15,
                            "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "finished_at": "2026-11-29T16:31:02.000000Z",
                            "assisted": False,
                            "registered": True,
                        },
                        {
                            "rank": 43,
                            "player": "cy",
                            "score": 14,
                            "game_id": "c3d2e1f0-a9b8-4c7d-8e6f-5a4b3c2d1e00",
                            "finished_at": "2026-11-28T20:05:11.000000Z",
                            "assisted": False,
                            "registered": True,
                        },
                    ],
                    "period": "all",
                    "starts_on": None,
                    "ends_on": None,
                    "per_player": None,
                }
            ]
        }
    )

    game_id: uuid.UUID
    rank: int = Field(description="The game's rank on this board.")
    size: int = Field(
        description="How many entries the board has (so the game is `rank` of `size`)."
    )
    entries: list[LeaderboardEntry] = Field(
        description="Up to `count` entries above the game, the game, and up to `count` below, "
        "in board order."
    )
    period: Period = None
    starts_on: StartsOn = None
    ends_on: EndsOn = None
    per_player: PerPlayer = None
