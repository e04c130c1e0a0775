"""Placements: decide one on the game as read, store it if the game has not moved since."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from api import metrics
from api.clock import now
from api.errors import ChallengeClosed, PreconditionFailed, VersionConflict, engine_error
from api.games.challenge_days import closes_at, is_closed, is_sealed
from api.games.conditional import etag, if_match_allows
from api.games.games import (
    LoadedGame,
    after_commit,
    authorize,
    authorize_private_read,
    dump_state,
    fetch_game,
    found,
    game_of,
    parse_game_id,
    render,
)
from api.games.players import name_key
from api.games.views import flipped_json
from api.store import repository
from api.store.database import Database
from api.store.repository import GameRecord, PlacementRecord, ScoreRecord, Win
from engine import EngineError, Game, PlacementResult, Status


@dataclass(frozen=True)
class PlacedCard(LoadedGame):
    placement: PlacementRecord
    rank: int | None = None  # a won game's all-time rank, as of its win


@dataclass(frozen=True)
class PlannedPlacement:
    """A placement decided on the game as read, not yet stored."""

    row: GameRecord  # as read
    after: GameRecord  # as it will be stored
    game: Game  # after the placement
    result: PlacementResult
    values: dict[str, Any]  # the game's new column values
    if_match: str | None  # the request's If-Match, if any


def _refuse_if_match(if_match: str, version: int) -> PreconditionFailed:
    current = etag(version)
    return PreconditionFailed(
        f"If-Match {if_match} does not match the game's current ETag {current}",
        headers={"ETag": current},
        current_version=version,
    )


def plan_placement(
    game_row: GameRecord,
    token: str | None,
    row: int,
    col: int,
    if_match: str | None = None,
    at: datetime | None = None,
) -> PlannedPlacement:
    """Authorise and play the placement in memory on the game as read: everything but the
    write, so that no write lock is held meanwhile. ``at`` is when it happens (the clock's
    time if None)."""
    authorize(game_row, token)
    if if_match is not None and not if_match_allows(if_match, etag(game_row.version)):
        raise _refuse_if_match(if_match, game_row.version)
    game = game_of(game_row)
    if (
        game_row.challenge_date is not None
        and not game.is_over
        and is_closed(game_row.challenge_date)
    ):
        # Its day's deal is public now: a game finished knowing it would mean nothing.
        raise ChallengeClosed(
            f"the daily challenge of {game_row.challenge_date.isoformat()} closed at "
            f"{closes_at(game_row.challenge_date).isoformat()}: its games take no more "
            "placements"
        )
    try:
        result = game.place((row, col))
    except EngineError as exc:
        raise engine_error(exc) from None
    moved = at or now()
    after = render(
        game_row._replace(
            state=dump_state(game),
            version=game_row.version + 1,
            updated_at=moved,
            finished_at=moved if result.status is not Status.IN_PROGRESS else None,
        ),
        game,
    )
    values: dict[str, Any] = {
        "state": after.state,
        "status": result.status.value,
        "end_reason": result.end_reason.value if result.end_reason else None,
        "score": result.score,
        "placements_count": result.number,
        "updated_at": moved,
        "finished_at": after.finished_at,
        "public_json": after.public_json,
        "public_format": after.public_format,
    }
    return PlannedPlacement(game_row, after, game, result, values, if_match)


def store_placement(session: Session, plan: PlannedPlacement) -> PlacedCard:
    """Store a planned placement, if the game is still at the version it was planned on.

    ``UPDATE games ... WHERE id = :id AND version = :v``: of two placements planned on the
    same version, whichever writes second matches no row and stores nothing. It is told
    ``412 precondition_failed`` if it sent ``If-Match`` (the ETag it named is no longer the
    game's), and ``409 version_conflict`` otherwise.
    """
    game_row, result, values = plan.row, plan.result, plan.values
    placement = PlacementRecord(
        number=result.number,
        row=result.position.row,
        col=result.position.col,
        card=result.card.code,
        flipped=flipped_json(result),
        status_after=result.status.value,
        created_at=values["updated_at"],
    )
    if not repository.move_game(session, game_row.id, game_row.version, values, placement):
        if plan.if_match is not None:
            current = repository.get_game_version(session, game_row.id)
            raise _refuse_if_match(plan.if_match, current or game_row.version)
        raise VersionConflict(
            "another change to this game was made at the same time; reload and retry"
        )
    status = result.status.value
    after_commit(session, lambda: metrics.card_placed(status))
    rank = None
    if result.score is not None:
        score = ScoreRecord(
            game_id=game_row.id,
            player=game_row.player,
            score=result.score,
            sort_score=-result.score,
            finished_at=values["updated_at"],
            assisted=game_row.assisted,
        )
        repository.record_win(session, Win(score, name_key(game_row.player)))
        ranked = repository.rank_of(session, game_row.id, "all", False, game_row.assisted)
        rank = ranked[0] if ranked else None
    if result.status is not Status.IN_PROGRESS and game_row.player_id is not None:
        # In the transaction that ends the game: the stats always equal a recount.
        repository.count_game_finished(
            session, game_row.player_id, result.score, values["updated_at"]
        )
    return PlacedCard(row=plan.after, game=plan.game, placement=placement, rank=rank)


def place_in(
    session: Session, game_id: str, token: str | None, row: int, col: int, if_match: str | None
) -> PlacedCard:
    """Read, plan and store a placement in one transaction (idempotent requests, whose
    claim is held meanwhile)."""
    game_row = fetch_game(session, game_id)
    plan = plan_placement(game_row, token, row, col, if_match)
    if plan.result.status is not Status.IN_PROGRESS:
        # Stamp the end while holding what orders it, locked until this transaction
        # commits: a player's winning streak follows the order their games end in (their
        # stats row), and a win's ordinals on the boards follow finish order (the count of
        # wins of its score, whose last finish it must come after). Always in this order.
        if game_row.player_id is not None:
            repository.lock_player_stats(session, game_row.player_id)
        at = None
        if plan.result.score is not None:
            at = finish_after(repository.last_win_of_score(session, plan.result.score))
        plan = plan_placement(game_row, token, row, col, if_match, at)
    return store_placement(session, plan)


def finish_after(last: datetime | None) -> datetime:
    """The clock's time, or a microsecond after ``last`` if the clock is not past it: wins
    of one score finish strictly one after another, in the order they are counted."""
    moment = now()
    if last is not None and moment <= last:
        return last + timedelta(microseconds=1)
    return moment


async def place_card(
    database: Database,
    game_id: str,
    token: str | None,
    row: int,
    col: int,
    if_match: str | None = None,
) -> PlacedCard:
    """Place the current card: read the game, decide, and store it with the guarded update,
    in one write transaction (one hop to a worker thread)."""
    parse_game_id(game_id)  # 404 for an id that is no UUID, before taking a write turn
    return await database.write(
        lambda session: place_in(session, game_id, token, row, col, if_match)
    )


async def history(
    database: Database, game_id: str, token: str | None = None
) -> tuple[uuid.UUID, list[PlacementRecord], bool]:
    """A game's placements in order, and whether they are private (a daily challenge game
    of a day still open, readable by its player only: else ``403 challenge_game_private``);
    or 404."""
    game_uuid = parse_game_id(game_id)

    def read(session: Connection) -> tuple[list[PlacementRecord], bool]:
        rows, day = found(repository.get_history_and_challenge_date(session, game_uuid), game_id)
        private = is_sealed(day)
        if private:
            authorize_private_read(found(repository.get_game(session, game_uuid), game_id), token)
        return rows, private

    rows, private = await database.read(read)
    return game_uuid, rows, private
