"""The players' request and response models: accounts, keys, stats and games pages."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Any

from pydantic import ConfigDict, Field

from api.core.names import NAME_RULE, PlayerName
from api.core.schemas import EndReasonName, RequestModel, ResponseModel, StatusName
from api.games import ReviewState

_PLAYER_EXAMPLE: dict[str, Any] = {
    "name": "ana",
    "created_at": "2026-11-29T16:00:00.000000Z",
    "stats": {
        "games_played": 12,
        "games_won": 7,
        "games_lost": 4,
        "games_in_progress": 1,
        "win_rate": 0.6364,
        "best_score": 21,
        "mean_winning_score": 9.857142857142858,
        "current_streak": 2,
        "longest_streak": 4,
        "last_played_at": "2026-11-30T09:12:44.000000Z",
        "races_played": 3,
        "races_won": 1,
    },
}
_PLAYER_KEY_EXAMPLE = (
    "fsp.3f0c2d8e9b7a4c1d8e2f0a1b2c3d4e5f.Vx3lM2k0b1Q9t7l0cG9rZXIta2VlcC1pdC1zZWNyZXQ"
)


class PlayerCreate(RequestModel):
    """The name to register."""

    model_config = ConfigDict(json_schema_extra={"examples": [{"name": "ana"}]})

    name: PlayerName = Field(
        description=(
            f"{NAME_RULE}; one name with no other account's: not in another case, not a "
            "look-alike, not the same but for `_` and `-` (once `ana` is registered, nobody "
            "can register, or play as a guest under, `ANA`, `a-n-a` or `ana_`). Else "
            "`422 invalid_player_name`, `409 name_taken`, or `409 name_reserved` for "
            "`computer`, `anonymous` and names that are one name with them."
        ),
    )


class PlayerStatsOut(ResponseModel):
    """A player's all-time figures, updated in the transaction that starts or ends a game."""

    games_played: int = Field(description="Games started, whatever their status.")
    games_won: int
    games_lost: int
    games_in_progress: int
    win_rate: float | None = Field(description="Won / (won + lost); null before a game ended.")
    best_score: int | None = Field(description="Best winning score; null before a win.")
    mean_winning_score: float | None = Field(description="Mean score of won games.")
    current_streak: int = Field(description="Games won since the last loss.")
    longest_streak: int = Field(description="Most games won in a row.")
    last_played_at: datetime | None = Field(
        description="When one of their games last started or ended."
    )
    races_played: int = Field(description="Races finished (`GET /players/{name}/races`).")
    races_won: int = Field(
        description="Races finished first, against another racer at least (the ranking: "
        "`GET /races/{id}`)."
    )


class PlayerOut(ResponseModel):
    """A player's page."""

    model_config = ConfigDict(json_schema_extra={"examples": [_PLAYER_EXAMPLE]})

    name: str
    created_at: datetime
    stats: PlayerStatsOut
    marked: bool = Field(
        default=False,
        description="Marked by the fair-play review (several of its wins followed the "
        "computer player's choices too closely): all its games are off the public boards "
        "until a moderator clears it (docs/fairplay.md).",
    )


class PlayerKey(ResponseModel):
    """A player's new secret key (shown only in this response)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"name": "ana", "key": _PLAYER_KEY_EXAMPLE}]}
    )

    name: str
    key: str = Field(
        description="Send as `Authorization: Bearer <key>` to start games as this player, to "
        "place cards and ask hints in them, and to rotate the key. Shown only once."
    )


class PlayerCreated(PlayerOut):
    """A new player and their secret key (shown only in this response)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{**_PLAYER_EXAMPLE, "key": _PLAYER_KEY_EXAMPLE}]}
    )

    key: str = Field(
        description="Send as `Authorization: Bearer <key>` to start games as this player, to "
        "place cards and ask hints in them, and to rotate the key. Shown only once."
    )


class PlayerGameOut(ResponseModel):
    """One of a player's games, in short (the whole game is at `/games/{id}`)."""

    id: uuid.UUID
    status: StatusName
    end_reason: EndReasonName | None
    score: int | None
    placements_count: int
    assisted: bool
    created_at: datetime
    finished_at: datetime | None
    challenge_date: date | None = Field(
        description="The UTC day whose daily challenge this game is; null for an ordinary game."
    )
    review: ReviewState | None = Field(
        default=None,
        description="The fair-play review's word on a won game without hints (as the game's "
        "`fair_play.status`): `pending` until checked, then on the boards (`clean`, "
        "`cleared`) or off them (`flagged`, `confirmed`, `held`). Null for other games.",
    )


class PlayerGames(ResponseModel):
    """A page of a player's games, newest first."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "player": "ana",
                    "games": [
                        {
                            "id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "status": "won",
                            "end_reason": None,
                            "score": 12,
                            "placements_count": 28,
                            "assisted": False,
                            "created_at": "2026-11-30T09:10:00.000000Z",
                            "finished_at": "2026-11-30T09:12:44.000000Z",
                        }
                    ],
                    "next_cursor": None,
                }
            ]
        }
    )

    player: str
    games: list[PlayerGameOut]
    next_cursor: str | None = Field(
        description="Pass as `cursor` (with the same `status`) for the next page; null at the end."
    )
