"""Placing a card: decided on the game as read, stored if the game has not moved since.

Each placement plays once on the engine and takes its snapshot once, outside any write lock;
one write transaction then stamps it (after taking the locks that order a game's end, so the
time is taken once those are held) and stores it with a version-guarded ``UPDATE``. A game
that it ends is announced to the features that keep figures of games (a player's stats, the
boards, live events: :mod:`api.games.hooks`) in the same transaction.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TypeVar

from sqlalchemy.orm import Session

from api.core import days
from api.core.clock import now
from api.core.database import after_commit
from api.core.errors import echo
from api.games import etags, snapshot, store
from api.games.access import authorize
from api.games.errors import (
    ChallengeClosed,
    PreconditionFailed,
    TimeUp,
    VersionConflict,
    engine_error,
)
from api.games.hooks import HOOKS
from api.games.records import decode, encode, facts_of, game_out, placement_out, view_after
from api.games.schemas import PlacementCreated
from api.games.snapshot import GameSnapshot
from api.games.store import GameChange, GameRecord, PlacementRecord
from api.idempotency import (
    credential_digest,
    fingerprint,
)
from api.ops import metrics
from engine import EngineError, PlacementResult, Status

T = TypeVar("T")


def placement_fingerprint(row: int, col: int, token: str | None) -> str:
    """What makes two placements on one game "the same request": the cell and the
    credential that sent it, so that only its sender is ever replayed its answer."""
    credential = credential_digest(token) if token is not None else None
    return fingerprint("POST", "placements", {"row": row, "col": col, "credential": credential})


# ---------------------------------------------------------------- placing a card


@dataclass(frozen=True)
class PlannedPlacement:
    """A placement decided on the game as read, not yet stored."""

    row: GameRecord
    result: PlacementResult
    state: str
    snapshot: GameSnapshot
    snapshot_text: str
    snapshot_format: str
    if_match: str | None


def _refuse_if_match(if_match: str, version: int) -> PreconditionFailed:
    current = etags.etag(version)
    return PreconditionFailed(
        f"If-Match {echo(if_match)} does not match the game's current ETag {current}",
        headers={"ETag": current},
        current_version=version,
    )


def plan_placement(
    row: GameRecord,
    token: str | None,
    cell: tuple[int, int],
    if_match: str | None = None,
    *,
    authorized: bool = False,
) -> PlannedPlacement:
    """Authorise the placement (unless ``row`` was read and authorised already, as the
    Idempotency-Key's claim does) and play it on the game as read: everything but the write,
    so that no write lock is held meanwhile."""
    if not authorized:
        authorize(row, token)
    if if_match is not None and not etags.if_match_allows(if_match, etags.etag(row.version)):
        raise _refuse_if_match(if_match, row.version)
    game = decode(row)
    if row.challenge_date is not None and not game.is_over and days.is_closed(row.challenge_date):
        # Its day's deal is public now: a game finished knowing it would mean nothing.
        raise ChallengeClosed(
            f"the daily challenge of {row.challenge_date.isoformat()} closed at "
            f"{days.closes_at(row.challenge_date).isoformat()}: its games take no more "
            "placements"
        )
    if row.deadline is not None and not game.is_over and now() >= row.deadline:
        raise _time_up(row.deadline)
    try:
        result = game.place(cell)
    except EngineError as exc:
        raise engine_error(exc) from None
    sealed = days.is_sealed(row.challenge_date, row.sealed)
    taken = snapshot.take(game, row.salt, sealed=sealed)
    return PlannedPlacement(
        row,
        result,
        encode(game),
        taken,
        snapshot.dumps(taken),
        snapshot.format_of(game, sealed=sealed),
        if_match,
    )


def _time_up(deadline: datetime) -> TimeUp:
    return TimeUp(
        f"this game's time was up at {deadline.isoformat()} (its race's end): it takes no "
        "more placements"
    )


def finish_after(last: datetime | None) -> datetime:
    """The clock's time, or a microsecond after ``last`` if the clock is not past it: wins
    of one score finish strictly one after another, in the order they are counted."""
    moment = now()
    if last is not None and moment <= last:
        return last + timedelta(microseconds=1)
    return moment


def store_placement(session: Session, plan: PlannedPlacement) -> PlacementCreated:
    """Store a planned placement, if the game is still at the version it was planned on
    (else ``412 precondition_failed`` for a request that sent ``If-Match``, ``409
    version_conflict`` for one that did not)."""
    row, result = plan.row, plan.result
    ends = result.status is not Status.IN_PROGRESS
    facts = facts_of(row, result.number, result.status.value, result.score, now())
    if ends:
        # Stamp the end once the subscribers hold what orders it (locked until this
        # transaction commits), after the latest end it must follow.
        facts = replace(facts, at=finish_after(HOOKS.earliest_end(session, facts)))
    at = facts.at
    change = GameChange(
        state=plan.state,
        status=result.status.value,
        end_reason=result.end_reason.value if result.end_reason else None,
        score=result.score,
        placements_count=result.number,
        updated_at=at,
        finished_at=at if ends else None,
        snapshot=plan.snapshot_text,
        snapshot_format=plan.snapshot_format,
        review="pending" if ends and facts.reviewed else None,
    )
    placement = PlacementRecord(
        number=result.number,
        row=result.position.row,
        col=result.position.col,
        card=result.card.code,
        flipped=[
            {"row": flip.position.row, "col": flip.position.col, "face_up": flip.face_up}
            for flip in result.flipped
        ],
        status_after=result.status.value,
        created_at=at,
    )
    # Announced before it is stored, so that PostgreSQL's NOTIFY rides on the storing
    # statement (api.core.store.notify): a placement that is refused rolls it back.
    HOOKS.announce(HOOKS.moved, session, facts)
    if not store.move_game(session, row.id, row.version, change, placement):
        if row.deadline is not None and at >= row.deadline:
            raise _time_up(row.deadline)
        if plan.if_match is not None:
            current = store.get_version(session, row.id)
            raise _refuse_if_match(plan.if_match, current or row.version)
        raise VersionConflict(
            "another change to this game was made at the same time; reload and retry"
        )
    status = result.status.value
    after_commit(session, lambda: metrics.card_placed(status))
    rank = None
    if ends:
        HOOKS.announce(HOOKS.ended, session, facts)
        if result.score is not None:
            rank = HOOKS.rank(session, row.id, row.assisted)
    return PlacementCreated(
        placement=placement_out(placement),
        game=game_out(view_after(row, plan.snapshot, change), plan.snapshot, rank),
    )
