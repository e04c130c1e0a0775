"""The live events' models: each server-sent event's data, and the games in progress."""

from __future__ import annotations

import uuid
from datetime import date, datetime
from typing import Literal

from pydantic import ConfigDict, Field

from api.core.schemas import EndReasonName, ResponseModel

BoardName = Literal["all_time", "day", "week"]


class GameEndEvent(ResponseModel):
    """`event: end` (no id): the game is over; the server closes the stream after it."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "status": "won",
                    "score": 7,
                    "reason": None,
                    "placements": 33,
                }
            ]
        }
    )

    game_id: uuid.UUID
    status: Literal["won", "lost"]
    score: int | None = Field(description="Cards left in the stock when won; null when lost.")
    reason: EndReasonName | None = Field(description="Why a lost game was lost; null when won.")
    placements: int = Field(description="The game's placements: the `id` of its last event.")


class ReconnectEvent(ResponseModel):
    """`event: reconnect`: this watcher fell too far behind (its queue filled up) and is
    closed; reconnect, sending `Last-Event-ID` (a browser's EventSource does)."""

    last_event_id: int | None = Field(
        description="The id of the last event sent on this stream (null on `/events`, whose "
        "events have no id)."
    )


class BoardRanks(ResponseModel):
    """A won game's rank on the all-time board and on the boards of the day and the week it
    was won in (the boards with games played with hints if it was, as `GET /games/{id}`'s
    `rank`)."""

    all_time: int
    day: int
    week: int


class WinEvent(ResponseModel):
    """`event: win`: a win was recorded (it is on the leaderboard from now on)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "player": "ana",
                    "score": 7,
                    "finished_at": "2026-12-02T10:15:00.000000Z",
                    "ranks": {"all_time": 12, "day": 1, "week": 3},
                    "assisted": False,
                }
            ]
        }
    )

    game_id: uuid.UUID
    player: str
    score: int
    finished_at: datetime
    ranks: BoardRanks
    assisted: bool = Field(
        description="A hint was asked in the game: it is on the boards with assisted games "
        "only (`include_assisted=true`), and `ranks` are its ranks there."
    )


class BestEvent(ResponseModel):
    """`event: best`: a win took rank 1 on a board the leaderboard shows by default (games
    played without hints); follows its `win` event."""

    board: BoardName
    game_id: uuid.UUID
    player: str
    score: int


class ChallengeEvent(ResponseModel):
    """`event: challenge`: a daily challenge's counts changed (a game of it was started or
    won)."""

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"date": "2026-12-02", "played": 41, "won": 6}]}
    )

    date: date
    played: int
    won: int


class GameInProgressOut(ResponseModel):
    """A game being played: what a spectator needs to choose one."""

    game_id: uuid.UUID
    player: str | None
    registered: bool = Field(
        description="Whether an account plays it (its player has a page, "
        "`GET /players/{name}`); false for a guest's game."
    )
    cards_placed: int
    last_move_at: datetime | None = Field(description="Its last placement's time; null before.")
    created_at: datetime


class GameListedEvent(GameInProgressOut):
    """`event: game`: a game began (`in_progress`) or ended (`won` or `lost`, abandoned
    included): the list of games being played (`GET /games?status=in_progress`) gains or loses
    it. It carries no card. Daily challenge games are left out until their day closes."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                    "player": "ana",
                    "registered": True,
                    "cards_placed": 0,
                    "last_move_at": None,
                    "created_at": "2026-12-02T10:14:02.000000Z",
                    "status": "in_progress",
                    "reason": None,
                }
            ]
        }
    )

    status: Literal["in_progress", "won", "lost"]
    reason: EndReasonName | None = Field(description="Why a lost game was lost; null otherwise.")


class GamesInProgress(ResponseModel):
    """A page of the games in progress, the most recently changed first."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "games": [
                        {
                            "game_id": "0b7e6a0c-3f7c-4d4e-9f3e-2a1d5c6b7a80",
                            "player": "ana",
                            "registered": True,
                            "cards_placed": 12,
                            "last_move_at": "2026-12-02T10:15:00.000000Z",
                            "created_at": "2026-12-02T10:14:02.000000Z",
                        }
                    ],
                    "next_cursor": None,
                }
            ]
        }
    )

    games: list[GameInProgressOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page; null: last.")
