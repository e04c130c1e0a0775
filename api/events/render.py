"""The live events as they travel: server-sent event frames, each rendered once per event
(whatever the number of its watchers), and a page of the games in progress."""

from __future__ import annotations

import uuid
from datetime import date

from api.events.schemas import (
    BestEvent,
    BoardRanks,
    ChallengeEvent,
    GameEndEvent,
    GameInProgressOut,
    GameListedEvent,
    GamesInProgress,
    ReconnectEvent,
    WinEvent,
)
from api.events.service import InProgressPage
from api.games import GameInProgress, GameState, ListedGame, PlacementRecord, placement_out
from api.leaderboards import ScoreRecord

_BOARDS = {"all": "all_time", "day": "day", "week": "week"}


def frame(event: str, data: bytes, event_id: int | str | None = None) -> bytes:
    """One event in the text/event-stream format (the data is one line of JSON)."""
    head = f"event: {event}\r\n" + (f"id: {event_id}\r\n" if event_id is not None else "")
    return head.encode() + b"data: " + data + b"\r\n\r\n"


class Frames:
    """:class:`api.events.hub.Rendering`: the frames of every event."""

    def placement(self, placement: PlacementRecord) -> bytes:
        # What GET /games/{id}/placements lists, rendered by the same function.
        data = placement_out(placement).model_dump_json().encode()
        return frame("placement", data, placement.number)

    def end(self, game_id: uuid.UUID, state: GameState) -> bytes:
        out = GameEndEvent(
            game_id=game_id,
            status="won" if state.status == "won" else "lost",
            score=state.score,
            reason=state.end_reason,  # type: ignore[arg-type]
            placements=state.placements_count,
        )
        return frame("end", out.model_dump_json().encode())

    def win(self, win: ScoreRecord, ranks: dict[str, int | None]) -> bytes:
        out = WinEvent(
            game_id=win.game_id,
            player=win.player,
            score=win.score,
            finished_at=win.finished_at,
            ranks=BoardRanks.model_validate({_BOARDS[k]: v for k, v in ranks.items()}),
            assisted=win.assisted,
        )
        return frame("win", out.model_dump_json().encode())

    def best(self, board: str, win: ScoreRecord) -> bytes:
        out = BestEvent(
            board=_BOARDS[board],  # type: ignore[arg-type]
            game_id=win.game_id,
            player=win.player,
            score=win.score,
        )
        return frame("best", out.model_dump_json().encode())

    def challenge(self, day: date, played: int, won: int) -> bytes:
        out = ChallengeEvent(date=day, played=played, won=won)
        return frame("challenge", out.model_dump_json().encode())

    def listing(self, game: ListedGame) -> bytes:
        out = GameListedEvent(
            **_in_progress(game.listed).model_dump(),
            status=game.status,  # type: ignore[arg-type]
            reason=game.end_reason,  # type: ignore[arg-type]
        )
        return frame("game", out.model_dump_json().encode())

    def event(self, kind: str, data: bytes, event_id: str) -> bytes:
        # A topic's event (a race's), its data rendered by the feature that publishes it.
        return frame(kind, data, event_id)

    def reconnect(self, last_event_id: int | None) -> bytes:
        out = ReconnectEvent(last_event_id=last_event_id)
        return frame("reconnect", out.model_dump_json().encode())

    def ping(self) -> bytes:
        return b": ping\r\n\r\n"


FRAMES = Frames()


def _in_progress(game: GameInProgress) -> GameInProgressOut:
    return GameInProgressOut(
        game_id=game.id,
        player=game.player,
        registered=game.registered,
        cards_placed=game.placements_count,
        last_move_at=game.last_move_at,
        created_at=game.created_at,
    )


def games_in_progress(page: InProgressPage) -> GamesInProgress:
    return GamesInProgress(
        games=[_in_progress(game) for game in page.games], next_cursor=page.next_cursor
    )
