"""Game analyses: asked for by a request, computed once, outside any request, by one process
(:mod:`api.analysis.runner`). A request only queues the job or reads how it stands."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy.orm import Session

from api.analysis import result, store
from api.analysis.errors import AnalysisNotFound, ChallengeDayOpen, GameInProgress
from api.analysis.schemas import AnalysisOut, AnalysisProgress
from api.analysis.store import AnalysisRecord
from api.core.clock import now
from api.core.database import Database, Executor
from api.core.days import closes_at, is_sealed
from api.games import GameService, LoadedGame, RaceNotOver, existing_game, parse_game_id


def ensure_analysable(loaded: LoadedGame) -> None:
    """The one rule deciding whether a game may be analysed and its analysis shown; raises
    :class:`GameInProgress` (409, nothing computed, nothing shown) otherwise.

    A game in progress may not: its analysis would judge placements with the help of the
    computer player and, through the hindsight optimum, the order of the stock. Any finished
    game may (won, lost or abandoned): its deck is revealed to anyone, so its analysis shows
    nothing that is not public. A rule for daily-challenge games (not before the challenge's
    day closes, ``409 challenge_day_open``) is here too, so that every route asks this function
    alone.
    """
    if not loaded.game.is_over:
        raise GameInProgress("the game is still in progress: it can be analysed once it has ended")
    day = loaded.row.challenge_date
    if loaded.row.sealed:
        raise RaceNotOver("a race's or a tournament's game can be analysed once it has ended")
    if is_sealed(day):
        assert day is not None
        raise ChallengeDayOpen(
            f"a game of the {day.isoformat()} daily challenge can be analysed once the day "
            f"closes, at {closes_at(day).isoformat()}"
        )


class AnalysisService:
    """Queue an analysis and read how it stands; each method one unit of work."""

    def __init__(self, database: Database, wake: Callable[[], None] | None = None) -> None:
        self.database = database
        self.wake = wake or (lambda: None)

    async def request(self, game_id: str) -> AnalysisOut:
        """Queue a finished game's analysis, unless it has one (then return it as it is); a
        failed one is queued again. Never computes anything, but wakes this process's runner
        at once for a job it queued."""
        game_uuid = parse_game_id(game_id)
        loaded: LoadedGame = await self.database.read(
            lambda session: GameService.load_in(session, game_uuid)
        )
        ensure_analysable(loaded)
        total = loaded.game.placements_count

        def queue(session: Session) -> AnalysisRecord:
            if not store.insert_analysis_if_absent(session, game_uuid, total, now()):
                store.requeue_failed_analysis(session, game_uuid, now())
            return existing_game(store.get_analysis(session, game_uuid), game_uuid)

        record = await self.database.write(queue)
        if record.state == "queued":
            self.wake()
        return _analysis(record)

    async def read(self, game_id: str) -> AnalysisOut:
        """A game's analysis as it stands; 404 for no such game or no analysis requested,
        409 for a game that may not be analysed (whether or not an analysis exists)."""
        game_uuid = parse_game_id(game_id)

        def read(session: Executor) -> tuple[LoadedGame, AnalysisRecord | None]:
            return GameService.load_in(session, game_uuid), store.get_analysis(session, game_uuid)

        loaded, record = await self.database.read(read)
        ensure_analysable(loaded)
        if record is None:
            raise AnalysisNotFound(
                f"game {game_uuid} has no analysis: POST /games/{game_uuid}/analysis to ask for one"
            )
        return _analysis(record)


def _analysis(record: AnalysisRecord) -> AnalysisOut:
    return AnalysisOut(
        game_id=record.game_id,
        state=record.state,  # type: ignore[arg-type]
        progress=AnalysisProgress(reviewed=record.reviewed, total=record.total),
        requested_at=record.requested_at,
        started_at=record.started_at,
        finished_at=record.finished_at,
        error=record.error,
        result=None if record.result is None else result.loads(record.result),
    )
