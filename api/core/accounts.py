"""Who a request is for: the account a player's key belongs to, or a guest's name.

Every feature that takes a player's key or a guest's name needs this (a game's creation, a
daily challenge's page, a player's own profile), so it lives in the core; registering,
rotating keys and a player's figures are the players feature's.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple, cast

from sqlalchemy import Table, select, update
from sqlalchemy.orm import Session

from api.core.database import Executor
from api.core.errors import InvalidToken, NameReserved, NameTaken, PlayerNameMismatch, echo
from api.core.models import PlayerRow
from api.core.names import COMPUTER_NAME, GUEST_NAME, RESERVED_SKELETONS, name_key, name_skeleton
from api.core.secrets import player_key_matches, player_key_owner

_players = cast(Table, PlayerRow.__table__)


class PlayerRecord(NamedTuple):
    """One row of ``players``."""

    id: uuid.UUID
    name: str
    name_key: str
    key_hash: str
    created_at: datetime
    name_skeleton: str
    # The key a rotation replaced, still accepted until ``key_hash``'s key is first used.
    previous_key_hash: str | None = None


@dataclass(frozen=True)
class Identity:
    """Who a new game is for: an account (``player_id``), a guest, or the computer player
    (:data:`COMPUTER`: never a person, and a name no person may take)."""

    name: str
    player_id: uuid.UUID | None
    computer: bool = False


COMPUTER = Identity(COMPUTER_NAME, None, computer=True)


_PLAYER_COLUMNS = tuple(_players.c[name] for name in PlayerRecord._fields)


def get_player(session: Executor, player_id: uuid.UUID) -> PlayerRecord | None:
    row = session.execute(select(*_PLAYER_COLUMNS).where(_players.c.id == player_id)).first()
    return None if row is None else PlayerRecord(*row)


def name_like(session: Executor, key: str, skeleton: str) -> str | None:
    """The name of an account whose name has this key or this skeleton, if any (one
    statement, both columns indexed)."""
    found: str | None = session.execute(
        select(_players.c.name)
        .where((_players.c.name_key == key) | (_players.c.name_skeleton == skeleton))
        .limit(1)
    ).scalar()
    return found


def authenticate(session: Executor, key: str) -> PlayerRecord:
    """The account whose current key this is, or ``403 invalid_token``.

    A key a rotation replaced is accepted too until the new key is first used: a rotation
    whose answer was lost (the new key never read) leaves the account its old key. The new
    key's first use in a write (``session`` is a write's :class:`Session`: starting a game,
    entering a race, a rotation) retires the old one in that transaction; a read with it
    (a read's connection) changes nothing, and the players' ``GET /players/me`` retires it
    by a write of its own (:func:`retire_previous_key`)."""
    player = key_owner(session, key)
    if player is None:
        raise InvalidToken("this key is not a player's current key")
    if (
        player.previous_key_hash is not None
        and isinstance(session, Session)
        and player_key_matches(key, player.id, player.key_hash)
    ):
        retire_previous_key(session, player)
        return player._replace(previous_key_hash=None)
    return player


def key_owner(session: Executor, key: str) -> PlayerRecord | None:
    """The account whose current key, or whose replaced key not yet retired, this is."""
    owner = player_key_owner(key)
    player = None if owner is None else get_player(session, owner)
    if player is None or not key_is_accepted(key, player):
        return None
    return player


def key_is_accepted(key: str, player: PlayerRecord) -> bool:
    """Whether ``key`` is the account's current key or its replaced key not yet retired."""
    if player_key_matches(key, player.id, player.key_hash):
        return True
    previous = player.previous_key_hash
    return previous is not None and player_key_matches(key, player.id, previous)


def retire_previous_key(session: Session, player: PlayerRecord) -> None:
    """The new key has been used: the key it replaced is refused from now on (if the current
    key is still the one that was used: a concurrent rotation leaves its own pair)."""
    session.execute(
        update(_players)
        .where(_players.c.id == player.id, _players.c.key_hash == player.key_hash)
        .values(previous_key_hash=None)
    )


def check_guest_name(session: Executor, name: str) -> None:
    """``409 name_taken`` if a guest's name is an account's (in any case, width or with
    invisible characters), or looks like one (its skeleton is an account's:
    :func:`api.core.names.name_skeleton`); ``409 name_reserved`` if it is one name with the
    computer player's."""
    key, skeleton = name_key(name), name_skeleton(name)
    reserved = RESERVED_SKELETONS.get(skeleton)
    if reserved == COMPUTER_NAME:
        raise NameReserved(
            f"{echo(name)!r} is the computer player's name, or one name with it under the name "
            "rule: play under another name"
        )
    if reserved == GUEST_NAME:
        return  # the guests' default and its look-alikes: no account has them (no query)
    owner = name_like(session, key, skeleton)
    if owner is not None:
        raise NameTaken(
            f"{echo(name)!r} is or looks like the registered player {owner!r}: send their "
            "key as 'Authorization: Bearer <key>', or play under another name"
        )


def identify(session: Executor, key: str | None, requested: str | None) -> Identity:
    """Who a new game is for. With a player key: that account (a body ``player`` naming
    anybody else is ``422 player_name_mismatch``). Without: a guest of the requested name."""
    if key is None:
        name = requested if requested is not None else GUEST_NAME
        check_guest_name(session, name)
        return Identity(name, None)
    return identify_account(authenticate(session, key), requested)


def identify_account(player: PlayerRecord, requested: str | None) -> Identity:
    """The identity of a new game of an authenticated account (``422 player_name_mismatch``
    if the request named somebody else)."""
    if requested is not None and name_key(requested) != player.name_key:
        raise PlayerNameMismatch(
            f"the key belongs to {player.name!r}, not {echo(requested)!r}: omit 'player' or "
            "send the account's name"
        )
    return Identity(player.name, player.id)
