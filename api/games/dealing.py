"""Dealing a new game and storing it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import replace
from datetime import date, datetime

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.accounts import Identity
from api.core import days
from api.core.clock import now, today
from api.core.database import Executor, after_commit
from api.core.secrets import (
    deck_commitment,
    hash_token,
    new_salt,
    new_seed,
    new_token,
)
from api.games import snapshot, store
from api.games.errors import ChallengeAlreadyPlayed, PlayerKeyRequired
from api.games.hooks import HOOKS
from api.games.records import DealtGame, encode, facts_of, game_created
from api.games.schemas import GameCreated
from api.games.store import NewGame, StoredView
from api.ops import metrics
from engine import Card, Game


def deal(
    player: Identity,
    *,
    deck: Sequence[Card | str] | None = None,
    shared: days.SharedDeal | None = None,
    deadline: datetime | None = None,
    token_hash: str | None = None,
) -> DealtGame:
    """Deal ``player`` a game: from a fresh secret seed, from ``deck`` (tests and puzzles
    only: the public API has no way to choose a deck), or from a ``shared`` deal (the day's
    challenge; or a race's, sealed until the race reveals it: its seed and salt, so its
    commitment is the deal's). ``deadline``: no placement after it. ``token_hash``: the
    credential that plays it, if not a new token of its own (a race's racer token). Nothing is
    stored yet."""
    if shared is not None:
        seed: str | None = shared.seed
        salt = shared.salt
    else:
        seed = None if deck is not None else new_seed()
        salt = new_salt()
    game = Game(deck) if deck is not None else Game.from_seed(seed)  # type: ignore[arg-type]
    token = new_token()
    created = now()
    daily = shared if isinstance(shared, days.DailyDeal) else None
    row = NewGame(
        id=uuid.uuid4(),
        player=player.name,
        token_hash=token_hash or hash_token(token),
        seed=seed,
        salt=salt,
        deck_commitment=deck_commitment([card.code for card in game.deck], salt),
        state=encode(game),
        status=game.status.value,
        created_at=created,
        snapshot=snapshot.dumps(snapshot.take(game, salt, sealed=False)),
        snapshot_format=snapshot.FORMAT,
        player_id=player.player_id,
        challenge_date=daily.day if daily is not None else None,
        sealed=shared is not None and daily is None,
        computer=player.computer,
        deadline=deadline,
    )
    return DealtGame(row, token)


def store_dealt(session: Session, dealt: DealtGame) -> GameCreated:
    """Store a dealt game and announce it (its player's stats, the day's challenge counts:
    :mod:`api.games.hooks`) in the same transaction; ``409 challenge_already_played`` for a
    second daily challenge game of a player and day."""
    row = dealt.row
    if row.challenge_date is not None:
        assert row.player_id is not None
        check_not_played(session, row.player_id, row.challenge_date)
    try:
        store.insert_game(session, row)
    except IntegrityError as exc:
        if row.challenge_date is None or "challenge_date" not in str(exc.orig):
            raise
        # Lost a race to a game not yet committed when checked.
        raise already_played(row.challenge_date, None) from None
    facts = facts_of(row, 0, row.status, None, row.created_at)
    HOOKS.announce(HOOKS.created, session, facts)
    after_commit(session, metrics.game_created)
    view = StoredView._make(getattr(row, name, None) for name in StoredView._fields)
    return game_created(view, snapshot.loads(row.snapshot), dealt.token)


# ---------------------------------------------------------------- the daily challenge's games


def todays_deal(secret: bytes) -> days.DailyDeal:
    """Today's deal, which a new challenge game is dealt from."""
    return days.daily_deal(secret, today())


def require_key(key: str | None) -> str:
    """The daily challenge is for registered players: ``401 player_key_required`` without a
    player's key (checked before anything else, so a refused request touches nothing)."""
    if key is None:
        raise PlayerKeyRequired(
            "the daily challenge is for registered players: send your key as "
            "'Authorization: Bearer <key>' (register with POST /players)"
        )
    return key


def challenge_game_of(session: Executor, player_id: uuid.UUID, day: date) -> uuid.UUID | None:
    """The player's game of ``day``'s challenge, if they started one."""
    return store.challenge_game_id(session, player_id, day)


def check_not_played(session: Executor, player_id: uuid.UUID, day: date) -> None:
    """``409 challenge_already_played`` if the player has a game of ``day``'s challenge. This
    answers the common case with the game's id; the unique constraint
    ``uq_games_challenge_date`` settles a race it cannot see (a concurrent insert not yet
    committed), see :func:`already_played`."""
    existing = challenge_game_of(session, player_id, day)
    if existing is not None:
        raise already_played(day, existing)


def already_played(day: date, game_id: uuid.UUID | None) -> ChallengeAlreadyPlayed:
    """The refusal of a second attempt at ``day``'s challenge (``game_id``: the first one's,
    if known)."""
    detail = (
        f"you have already played the daily challenge of {day.isoformat()}"
        f"{f' (game {game_id})' if game_id is not None else ''}; the next one opens at "
        f"{days.closes_at(day).isoformat()}"
    )
    if game_id is None:  # lost a race to a game not yet committed when checked
        return ChallengeAlreadyPlayed(detail)
    return ChallengeAlreadyPlayed(detail, game_id=str(game_id))


def for_identity(dealt: DealtGame, who: Identity) -> DealtGame:
    """A game dealt before its player was known (a creation deals outside its write
    transaction, which then finds who it is for)."""
    row = replace(dealt.row, player=who.name, player_id=who.player_id, computer=who.computer)
    return DealtGame(row, dealt.token)
