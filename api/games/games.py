"""Games: deal and store one, read one, check a request's token."""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from api import metrics
from api.clock import now
from api.errors import ChallengeGamePrivate, GameNotFound, InvalidToken, MissingToken
from api.games import challenge_days, players, views
from api.games.challenge_days import DailyDeal
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
        public_format=views.format_of(row, game),
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
    challenge: DailyDeal | None = None,
) -> NewGame:
    """Deal a game from a fresh secret seed, or from ``deck`` (tests and puzzles only: the
    public API has no way to choose a deck), or the day's ``challenge`` deal (its seed and
    salt, so its commitment is the day's), for the account ``player_id`` (named ``player``)
    or a guest; nothing is stored yet."""
    if challenge is not None:
        seed: str | None = challenge.seed
        salt = challenge.salt
    else:
        seed = None if deck is not None else new_seed()
        salt = new_salt()
    game = Game(deck) if deck is not None else Game.from_seed(seed)  # type: ignore[arg-type]
    token = new_token()
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
        challenge_date=challenge.day if challenge is not None else None,
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


def authorize_private_read(row: GameRecord, token: str | None) -> None:
    """A daily challenge game is its player's alone until its day closes: reading its piles
    or history needs the game's token or its player's key (else ``403
    challenge_game_private``), so that nobody can follow the day's deal over a player's
    shoulder and play it knowing the cards to come."""
    if not challenge_days.is_sealed(row.challenge_date):
        return
    try:
        authorize(row, token)
    except (MissingToken, InvalidToken):
        assert row.challenge_date is not None
        closes = challenge_days.closes_at(row.challenge_date).isoformat()
        raise ChallengeGamePrivate(
            f"this daily challenge game is visible to its player only until its day closes "
            f"({closes}); its player sends the game's token or their key as "
            "'Authorization: Bearer <token>'"
        ) from None


@dataclass(frozen=True)
class PublicRead:
    """A game's public view as ``GET /games/{id}`` sends it."""

    version: int
    over: bool
    json: str
    # A challenge game whose day is open: private to its player, and when over, shown
    # without its reveal until the day closes (so neither cacheable by others nor final).
    sealed: bool
    rank: int | None = None  # a won game's all-time rank, read with the view


def _view_and_rank(session: Executor, game_id: uuid.UUID) -> tuple[PublicView | None, int | None]:
    view = repository.get_public_view(session, game_id)
    if view is None or view.status != "won":
        return view, None
    ranked = repository.rank_of(session, game_id, "all", False, view.assisted)
    return view, ranked[0] if ranked else None


async def read_public_view(
    database: Database, game_id: str, token: str | None = None
) -> PublicRead:
    """A game's version, whether it is over, and its public view as JSON; or 404 (or 403
    for a daily challenge game of a day still open, read without its token or player's key).

    The view stored with the game if it is in the current format; otherwise (a schema or
    rendering change since it was stored, a game stored before views were, or a challenge
    game rendered without its reveal whose day has closed since) it is rendered from the
    game's state, and stored for the next read if the game has not moved since.
    """
    game_uuid = parse_game_id(game_id)
    found_view, rank = await database.read(lambda s: _view_and_rank(s, game_uuid))
    view: PublicView = found(found_view, game_id)
    over = view.status != "in_progress"
    sealed = challenge_days.is_sealed(view.challenge_date)
    if sealed:
        owned = found(await database.read(lambda s: repository.get_game(s, game_uuid)), game_id)
        authorize_private_read(owned, token)
    current = views.SEALED_VIEW_FORMAT if sealed and over else views.PUBLIC_VIEW_FORMAT
    if view.public_format == current and view.public_json is not None:
        return _ranked(PublicRead(view.version, over, view.public_json, sealed, rank))
    row = found(await database.read(lambda s: repository.get_game(s, game_uuid)), game_id)
    row = render(row, game_of(row))
    assert row.public_json is not None and row.public_format is not None
    # If the database is busy, this read answers all the same and a later one stores it.
    with contextlib.suppress(OperationalError, PoolTimeoutError):
        await database.write(
            lambda s: repository.store_public_view(
                s, row.id, row.version, row.public_format or "", row.public_json or ""
            )
        )
    return _ranked(PublicRead(row.version, over, row.public_json, sealed, rank))


def _ranked(read: PublicRead) -> PublicRead:
    if read.rank is None:
        return read
    return replace(read, json=views.with_rank(read.json, read.rank))


def check_database(session: Executor) -> None:
    repository.ping(session)
