"""Games: deal and store one, read one, check a request's token."""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from api import metrics
from api.clock import now
from api.errors import GameNotFound, InvalidToken, MissingToken
from api.games import players, views
from api.games.credentials import (
    deck_commitment,
    hash_token,
    new_salt,
    new_seed,
    new_token,
    player_key_matches,
    token_matches,
)
from api.store import repository
from api.store.database import Database
from api.store.repository import Executor, GameRecord, PublicView
from engine import Card, Game

T = TypeVar("T")


def dump_state(game: Game) -> str:
    return json.dumps(game.to_dict(), separators=(",", ":"))


def game_of(record: GameRecord) -> Game:
    """The engine state of a stored game."""
    return Game.from_dict(json.loads(record.state))


def render(row: GameRecord, game: Game) -> GameRecord:
    """``row`` with its public view rendered from ``game``, in the current format."""
    return row._replace(
        public_json=views.game_out(row, game).model_dump_json(),
        public_format=views.PUBLIC_VIEW_FORMAT,
    )


@dataclass(frozen=True)
class LoadedGame:
    row: GameRecord
    game: Game


@dataclass(frozen=True)
class NewGame(LoadedGame):
    token: str
    values: dict[str, Any]  # every column of its row


def parse_game_id(raw: str) -> uuid.UUID:
    """A game id from a URL; anything that is not a UUID is a game that does not exist."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise GameNotFound(f"there is no game {raw[:64]!r}") from None


def found(what: T | None, game_id: str | uuid.UUID) -> T:
    """What was found of a game, or 404."""
    if what is None:
        raise GameNotFound(f"there is no game {str(game_id)[:64]!r}")
    return what


def new_game(
    player: str,
    *,
    deck: Sequence[Card | str] | None = None,
    player_id: uuid.UUID | None = None,
) -> NewGame:
    """Deal a game from a fresh secret seed, or from ``deck`` (tests and puzzles only: the
    public API has no way to choose a deck), for the account ``player_id`` (named ``player``)
    or a guest; nothing is stored yet."""
    seed = None if deck is not None else new_seed()
    game = Game(deck) if deck is not None else Game.from_seed(seed)  # type: ignore[arg-type]
    token = new_token()
    salt = new_salt()
    created = now()
    row = GameRecord(
        id=uuid.uuid4(),
        player=player,
        token_hash=hash_token(token),
        salt=salt,
        deck_commitment=deck_commitment([card.code for card in game.deck], salt),
        state=dump_state(game),
        version=1,
        assisted=False,
        created_at=created,
        updated_at=created,
        finished_at=None,
        public_json=None,
        public_format=None,
        player_id=player_id,
        player_key_hash=None,  # not needed: the game's creator holds its token
    )
    row = render(row, game)
    # The record (but the account's key hash, which is not a column of games), and the
    # columns no request reads back.
    values: dict[str, Any] = row._asdict()
    del values["player_key_hash"]
    values |= {
        "seed": seed,
        "status": game.status.value,
        "end_reason": None,
        "score": None,
        "placements_count": 0,
    }
    return NewGame(row=row, game=game, token=token, values=values)


def after_commit(session: Session, action: Callable[[], None]) -> None:
    """Run ``action`` once ``session``'s transaction has committed, and never if it rolls
    back: the metrics count what was stored, not what was attempted."""
    event.listen(session, "after_commit", lambda _session: action(), once=True)


def store_new_game(session: Session, game: NewGame) -> NewGame:
    """Store a dealt game, counted in its player's stats in the same transaction; a guest's
    name is checked again here against accounts registered since it was first checked."""
    if game.row.player_id is None:
        players.check_guest_name(session, game.row.player)
    repository.insert_game(session, game.values)
    if game.row.player_id is not None:
        repository.count_game_started(session, game.row.player_id, game.row.created_at)
    after_commit(session, metrics.game_created)
    return game


def create_game(
    session: Session,
    player: str,
    *,
    deck: Sequence[Card | str] | None = None,
    player_id: uuid.UUID | None = None,
) -> NewGame:
    """Deal a game and store it."""
    return store_new_game(session, new_game(player, deck=deck, player_id=player_id))


def fetch_game(session: Executor, game_id: str | uuid.UUID) -> GameRecord:
    """A game as stored, or 404."""
    game_uuid = game_id if isinstance(game_id, uuid.UUID) else parse_game_id(game_id)
    return found(repository.get_game(session, game_uuid), game_id)


def load_game(session: Executor, game_id: str | uuid.UUID) -> LoadedGame:
    """A game as stored and its engine state, or 404."""
    row = fetch_game(session, game_id)
    return LoadedGame(row=row, game=game_of(row))


def authorize(row: GameRecord, token: str | None) -> None:
    """Check a request's bearer token: the game's token, or the current key of the account
    that plays it (both compared with stored hashes in constant time)."""
    if token is None:
        raise MissingToken(
            "send the game's token or its player's key as 'Authorization: Bearer <token>'"
        )
    if token_matches(token, row.token_hash):
        return
    if (
        row.player_id is not None
        and row.player_key_hash is not None
        and player_key_matches(token, row.player_id, row.player_key_hash)
    ):
        return
    raise InvalidToken("this token does not authorise placements on this game")


async def read_public_view(database: Database, game_id: str) -> tuple[int, bool, str]:
    """A game's version, whether it is over, and its public view as JSON; or 404.

    The view stored with the game if it is in the current format; otherwise (a schema or
    rendering change since it was stored, or a game stored before views were) it is rendered
    from the game's state, and stored for the next read if the game has not moved since.
    """
    game_uuid = parse_game_id(game_id)
    view: PublicView = found(
        await database.read(lambda s: repository.get_public_view(s, game_uuid)), game_id
    )
    if view.public_format == views.PUBLIC_VIEW_FORMAT and view.public_json is not None:
        return view.version, view.status != "in_progress", view.public_json
    row = found(await database.read(lambda s: repository.get_game(s, game_uuid)), game_id)
    row = render(row, game_of(row))
    assert row.public_json is not None
    # If the database is busy, this read answers all the same and a later one stores it.
    with contextlib.suppress(OperationalError, PoolTimeoutError):
        await database.write(
            lambda s: repository.store_public_view(
                s, row.id, row.version, views.PUBLIC_VIEW_FORMAT, row.public_json or ""
            )
        )
    return row.version, view.status != "in_progress", row.public_json


def check_database(session: Executor) -> None:
    repository.ping(session)
