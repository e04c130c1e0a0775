"""Dealing a new game and storing it."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.challenges import days
from api.challenges import service as challenges
from api.core.clock import now
from api.core.database import after_commit
from api.core.secrets import (
    deck_commitment,
    hash_token,
    new_salt,
    new_seed,
    new_token,
)
from api.events import announce as events
from api.games import snapshot, store
from api.games.records import Created, DealtGame, encode, public_game
from api.games.store import NewGameRow, StoredView
from api.ops import metrics
from api.players import service as players
from engine import Card, Game


def deal(
    player: str,
    *,
    deck: Sequence[Card | str] | None = None,
    player_id: uuid.UUID | None = None,
    challenge: days.DailyDeal | None = None,
) -> DealtGame:
    """Deal a game from a fresh secret seed, or from ``deck`` (tests and puzzles only: the
    public API has no way to choose a deck), or the day's ``challenge`` deal (its seed and
    salt, so its commitment is the day's), for ``player``; nothing is stored yet."""
    if challenge is not None:
        seed: str | None = challenge.seed
        salt = challenge.salt
    else:
        seed = None if deck is not None else new_seed()
        salt = new_salt()
    game = Game(deck) if deck is not None else Game.from_seed(seed)  # type: ignore[arg-type]
    token = new_token()
    created = now()
    row = NewGameRow(
        id=uuid.uuid4(),
        player=player,
        token_hash=hash_token(token),
        seed=seed,
        salt=salt,
        deck_commitment=deck_commitment([card.code for card in game.deck], salt),
        state=encode(game),
        version=1,
        status=game.status.value,
        end_reason=None,
        score=None,
        placements_count=0,
        assisted=False,
        created_at=created,
        updated_at=created,
        finished_at=None,
        snapshot=snapshot.dumps(snapshot.take(game, salt, sealed=False)),
        snapshot_format=snapshot.FORMAT,
        player_id=player_id,
        challenge_date=challenge.day if challenge is not None else None,
    )
    return DealtGame(row, token)


def store_dealt(session: Session, dealt: DealtGame) -> Created:
    """Store a dealt game, counted in its player's stats in the same transaction; ``409
    challenge_already_played`` for a second daily challenge game of a player and day."""
    row = dealt.row
    if row.challenge_date is not None:
        assert row.player_id is not None
        challenges.check_not_played(session, row.player_id, row.challenge_date)
    try:
        store.insert_game(session, row)
    except IntegrityError as exc:
        if row.challenge_date is None or "challenge_date" not in str(exc.orig):
            raise
        # Lost a race to a game not yet committed when checked.
        raise challenges.already_played(row.challenge_date, None) from None
    if row.player_id is not None:
        players.count_game_started(session, row.player_id, row.created_at)
    after_commit(session, metrics.game_created)
    if row.challenge_date is not None:
        events.challenge_changed(session, row.challenge_date)  # one more played
    view = StoredView(
        row.id, row.player, row.version, row.status, row.assisted, row.deck_commitment,
        row.created_at, row.updated_at, row.finished_at, row.challenge_date, None, None,
    )  # fmt: skip
    return Created(public_game(view, snapshot.loads(row.snapshot)), dealt.token)


def start_game(
    session: Session,
    player: str,
    *,
    deck: Sequence[Card | str] | None = None,
    player_id: uuid.UUID | None = None,
) -> Created:
    """Deal a game and store it in ``session``'s transaction (tools and tests: the public
    API's creations go through :meth:`GameService.create`)."""
    return store_dealt(session, deal(player, deck=deck, player_id=player_id))


def for_identity(dealt: DealtGame, who: players.Identity) -> DealtGame:
    return DealtGame(dealt.row._replace(player=who.name, player_id=who.player_id), dealt.token)
