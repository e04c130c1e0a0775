"""Use cases: load from the repository, ask the engine, persist. Services never commit."""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

from sqlalchemy.orm import Session

from api import repository
from api.conditional import etag, if_match_allows
from api.db import Database
from api.errors import (
    ApiError,
    GameIsOver,
    GameNotFound,
    InvalidToken,
    MissingToken,
    PreconditionFailed,
    VersionConflict,
    engine_error,
)
from api.fairness import deck_commitment, new_salt
from api.presenters import flipped_json, game_json, game_out
from api.reads import Reads
from api.repository import GameRecord, PlacementRecord, ScoreRecord
from api.security import bearer_token, hash_token, new_seed, new_token, token_matches
from engine import Card, EngineError, Game, PlacementResult, Status
from engine.player.advice import Advice, Budget, Policy, advise

T = TypeVar("T")


def _now() -> datetime:
    return datetime.now(UTC)


def _dump_state(game: Game) -> str:
    return json.dumps(game.to_dict(), separators=(",", ":"))


def game_of(record: GameRecord) -> Game:
    """The engine state of a stored game."""
    return Game.from_dict(json.loads(record.state))


@dataclass(frozen=True)
class LoadedGame:
    row: GameRecord
    game: Game


@dataclass(frozen=True)
class NewGame(LoadedGame):
    token: str
    values: dict[str, Any]  # every column of its row


@dataclass(frozen=True)
class PlacedCard(LoadedGame):
    placement: PlacementRecord


def parse_game_id(raw: str) -> uuid.UUID:
    """A game id from a URL; anything that is not a UUID is a game that does not exist."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise GameNotFound(f"there is no game {raw[:64]!r}") from None


def new_game(player: str, *, deck: Sequence[Card | str] | None = None) -> NewGame:
    """Deal a game from a fresh secret seed, or from ``deck`` (tests and puzzles only: the
    public API has no way to choose a deck); nothing is stored yet."""
    seed = None if deck is not None else new_seed()
    game = Game(deck) if deck is not None else Game.from_seed(seed)  # type: ignore[arg-type]
    token = new_token()
    salt = new_salt()
    now = _now()
    row = GameRecord(
        id=uuid.uuid4(),
        player=player,
        token_hash=hash_token(token),
        salt=salt,
        deck_commitment=deck_commitment([card.code for card in game.deck], salt),
        state=_dump_state(game),
        version=1,
        assisted=False,
        created_at=now,
        updated_at=now,
        finished_at=None,
        public_json=None,
    )
    row = row._replace(public_json=game_json(row, game))
    # The record, and the columns no request reads back.
    values: dict[str, Any] = row._asdict() | {
        "seed": seed,
        "status": game.status.value,
        "end_reason": None,
        "score": None,
        "placements_count": 0,
    }
    return NewGame(row=row, game=game, token=token, values=values)


def store_new_game(session: Session, game: NewGame) -> NewGame:
    repository.insert_game(session, game.values)
    return game


def create_game(
    session: Session, player: str, *, deck: Sequence[Card | str] | None = None
) -> NewGame:
    """Deal a game and store it."""
    return store_new_game(session, new_game(player, deck=deck))


def _found(found: T | None, game_id: str) -> T:
    """What was found of a game, or 404."""
    if found is None:
        raise GameNotFound(f"there is no game {game_id!r}")
    return found


def fetch_game(session: Session, game_id: str) -> GameRecord:
    """A game as stored, or 404."""
    return _found(repository.get_game(session, parse_game_id(game_id)), game_id)


async def read_game(reads: Reads, game_id: str) -> GameRecord:
    """A game as stored (on the event loop), or 404."""
    return _found(await reads.game(parse_game_id(game_id)), game_id)


async def read_public_game(reads: Reads, game_id: str) -> tuple[int, str]:
    """A game's version and its public JSON as ``GET /games/{id}`` sends it, or 404: the JSON
    stored with the game, or, for a game stored before there was such a column, rendered."""
    version, body = _found(await reads.public_game(parse_game_id(game_id)), game_id)
    if body is None:
        row = await read_game(reads, game_id)
        version, body = row.version, game_out(row, game_of(row)).model_dump_json()
    return version, body


def load_game(session: Session, game_id: str) -> LoadedGame:
    """A game as stored and its engine state, or 404."""
    row = fetch_game(session, game_id)
    return LoadedGame(row=row, game=game_of(row))


def authorize_request(session: Session, game_id: str, authorization: str | None) -> uuid.UUID:
    """Check that the game exists and that the request carries its token; return its id."""
    row = fetch_game(session, game_id)
    authorize(row, authorization)
    return row.id


def authorize(row: GameRecord, authorization: str | None) -> None:
    """Check the bearer token of a request against the game's stored hash."""
    token = bearer_token(authorization)
    if token is None:
        raise MissingToken("send the game's token as 'Authorization: Bearer <token>'")
    if not token_matches(token, row.token_hash):
        raise InvalidToken("this token does not authorise placements on this game")


@dataclass(frozen=True)
class PlannedPlacement:
    """A placement decided on the game as read, not yet stored."""

    row: GameRecord  # as read
    after: GameRecord  # as it will be stored
    game: Game  # after the placement
    result: PlacementResult
    values: dict[str, Any]  # the game's new column values


def plan_placement(
    game_row: GameRecord,
    authorization: str | None,
    row: int,
    col: int,
    if_match: str | None = None,
    *,
    game: Game | None = None,
) -> PlannedPlacement:
    """Authorise and play the placement in memory on the game as read: everything but the
    write, so that no write lock is held meanwhile. ``game`` is the engine state of
    ``game_row`` if the caller has it (it is played on), else it is decoded from the row."""
    if game is None:
        game = game_of(game_row)
    authorize(game_row, authorization)
    current = etag(game_row.version)
    if not if_match_allows(if_match, current):
        raise PreconditionFailed(
            f"If-Match {if_match} does not match the game's current ETag {current}",
            headers={"ETag": current},
            current_version=game_row.version,
        )
    try:
        result = game.place((row, col))
    except EngineError as exc:
        raise engine_error(exc) from None
    now = _now()
    after = game_row._replace(
        state=_dump_state(game),
        version=game_row.version + 1,
        updated_at=now,
        finished_at=now if result.status is not Status.IN_PROGRESS else None,
    )
    after = after._replace(public_json=game_json(after, game))
    values: dict[str, Any] = {
        "state": after.state,
        "status": result.status.value,
        "end_reason": result.end_reason.value if result.end_reason else None,
        "score": result.score,
        "placements_count": result.number,
        "updated_at": now,
        "finished_at": after.finished_at,
        "public_json": after.public_json,
    }
    return PlannedPlacement(row=game_row, after=after, game=game, result=result, values=values)


def store_placement(session: Session, plan: PlannedPlacement) -> PlacedCard:
    """Store a planned placement, if the game is still at the version it was planned on.

    ``UPDATE games ... WHERE id = :id AND version = :v``: of two placements planned on the
    same version, whichever writes second matches no row and stores nothing (409).
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
        raise VersionConflict(
            "another change to this game was made at the same time; reload and retry"
        )
    now = values["updated_at"]
    if result.score is not None:
        repository.insert_score(
            session,
            ScoreRecord(
                game_id=game_row.id,
                player=game_row.player,
                score=result.score,
                sort_score=-result.score,
                finished_at=now,
                assisted=game_row.assisted,
            ),
        )
    return PlacedCard(row=plan.after, game=plan.game, placement=placement)


async def place_card(
    database: Database,
    game_id: str,
    authorization: str | None,
    row: int,
    col: int,
    if_match: str | None = None,
) -> PlacedCard:
    """Place the current card (no ``Idempotency-Key``): plan on the game as this process last
    stored it if it has it (see :mod:`api.in_play`), else, or if anything is refused on that
    copy, on the game as read; store; keep the game for the next placement."""

    async def place_on(game_row: GameRecord, game: Game | None = None) -> PlacedCard:
        plan = plan_placement(game_row, authorization, row, col, if_match, game=game)
        return await database.write(lambda session: store_placement(session, plan))

    kept = database.in_play.take(parse_game_id(game_id))
    placed: PlacedCard | None = None
    if kept is not None:
        with contextlib.suppress(ApiError):  # then decided again on the stored game
            placed = await place_on(kept.row, kept.game)
    if placed is None:
        placed = await place_on(await read_game(database.reads, game_id))
    database.in_play.put(placed.row, placed.game)
    return placed


async def history(reads: Reads, game_id: str) -> tuple[uuid.UUID, list[PlacementRecord]]:
    game_uuid = parse_game_id(game_id)
    return game_uuid, _found(await reads.history(game_uuid), game_id)


# ---------------------------------------------------------------- leaderboard


class InvalidCursor(ValueError):
    """A leaderboard cursor that this service did not make."""


@dataclass(frozen=True)
class RankedScore:
    rank: int
    score: ScoreRecord


def encode_cursor(key: repository.LeaderboardKey, rank: int, include_assisted: bool) -> str:
    sort_score, finished_at, game_id = key
    raw = json.dumps(
        [sort_score, finished_at.isoformat(), game_id.hex, rank, include_assisted],
        separators=(",", ":"),
    ).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(cursor: str, include_assisted: bool) -> tuple[repository.LeaderboardKey, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        sort_score, finished_at, game_id, rank, listing = json.loads(raw)
        key = (int(sort_score), datetime.fromisoformat(finished_at), uuid.UUID(hex=game_id))
        if key[1].tzinfo is None or not isinstance(rank, int) or rank < 0:
            raise InvalidCursor(cursor)
        if listing is not include_assisted:
            raise InvalidCursor(cursor)  # a cursor of the other listing
        return key, rank
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError) as exc:
        raise InvalidCursor(cursor) from exc


async def leaderboard(
    reads: Reads, limit: int, cursor: str | None, *, include_assisted: bool = False
) -> tuple[list[RankedScore], str | None]:
    """A page of won games and the cursor of the next page (None on the last page).

    Paging is by key, not offset, so entries never repeat or go missing while new wins
    arrive; ranks continue from the cursor, so they count positions as paging goes.
    """
    after, rank = decode_cursor(cursor, include_assisted) if cursor else (None, 0)
    rows = await reads.leaderboard(after, limit + 1, include_assisted=include_assisted)
    page = [RankedScore(rank + i, row) for i, row in enumerate(rows[:limit], start=1)]
    next_cursor = None
    if len(rows) > limit:
        last = page[-1]
        next_cursor = encode_cursor(
            (last.score.sort_score, last.score.finished_at, last.score.game_id),
            last.rank,
            include_assisted,
        )
    return page, next_cursor


def check_database(session: Session) -> None:
    repository.ping(session)


# ---------------------------------------------------------------- hints


def compute_hint(loaded: LoadedGame, budget: Budget) -> Advice:
    """The computer player's advice, from the public view only (it never sees the stock)."""
    if loaded.game.is_over:
        raise GameIsOver(f"the game is over ({loaded.game.status.value}); there is nothing to hint")
    return advise(
        loaded.game.public_view(),
        policy=Policy.BEST,
        seed=loaded.row.id.int & 0xFFFFFFFF,
        budget=budget,
    )


def mark_assisted(session: Session, loaded: LoadedGame) -> int:
    """Mark a game assisted (bumping its version), if it still is at the version read; return
    its version."""
    row = loaded.row
    if row.assisted:
        if repository.get_game_version(session, row.id) != row.version:
            raise VersionConflict("the game changed while the hint was computed; ask again")
        return row.version
    after = row._replace(assisted=True, version=row.version + 1, updated_at=_now())
    values = {
        "assisted": True,
        "updated_at": after.updated_at,
        "public_json": game_json(after, loaded.game),
    }
    if not repository.update_game_if_version(session, row.id, row.version, values):
        raise VersionConflict("the game changed while the hint was computed; ask again")
    return row.version + 1
