"""Who a request is for: the account a player's key belongs to, or a guest's name.

Every feature that takes a player's key or a guest's name needs this (a game's creation, a
daily challenge's page, a player's own profile); registering, rotating keys and a player's
figures are the players feature's routes.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import NamedTuple

from sqlalchemy.orm import Session

from api.accounts import store
from api.accounts.errors import (
    InvalidToken,
    NameReserved,
    NameTaken,
    PlayerNameMismatch,
    PlayerNotFound,
)
from api.accounts.store import PlayerRecord
from api.core.clock import now
from api.core.database import Executor
from api.core.errors import echo
from api.core.names import (
    COMPUTER_NAME,
    GUEST_NAME,
    RESERVED_SKELETONS,
    STORED_NAME,
    name_key,
    name_skeleton,
)
from api.core.secrets import player_key_id, token_matches

# A key's last use is written at most this often: once a key has been used in the last hour,
# using it again writes nothing, so an authenticated request runs as many statements as it
# did when an account had one key and no record of its use.
KEY_USE_RESOLUTION = timedelta(hours=1)


@dataclass(frozen=True)
class Identity:
    """Who a new game is for: an account (``player_id``), a guest, or the computer player
    (:data:`COMPUTER`: never a person, and a name no person may take)."""

    name: str
    player_id: uuid.UUID | None
    computer: bool = False


COMPUTER = Identity(COMPUTER_NAME, None, computer=True)


class SignedIn(NamedTuple):
    """An authenticated request: the account, and which of its keys signed it, as read."""

    player: PlayerRecord
    key_id: uuid.UUID
    key_hash: str  # the key's current secret's
    # The secret its last rotation replaced, accepted until ``key_hash``'s is first used.
    previous_hash: str | None
    current: bool  # signed with the current secret (not the replaced one)
    last_used_at: datetime | None


def authenticate(session: Executor, key: str) -> PlayerRecord:
    """The account one of whose keys this is, or ``403 invalid_token``
    (:func:`authenticate_key`)."""
    return authenticate_key(session, key).player


def authenticate_key(session: Executor, key: str) -> SignedIn:
    """The account one of whose keys this is, and that key's row, or ``403 invalid_token``.

    A key's secret that a rotation replaced is accepted too until the new secret is first
    used: a rotation whose answer was lost (the new secret never read) leaves the key its old
    secret. In a write transaction (a :class:`Session`: starting a game, entering a race, a
    rotation) the new secret's first use retires the old one, and the key's last use is
    recorded when the one stored is over :data:`KEY_USE_RESOLUTION` old; a read (a Core
    connection) records nothing, and the players' ``GET /players/me`` retires the old secret
    by a write of its own (:func:`retire_previous_secret`)."""
    signed = signed_in(session, key)
    if signed is None:
        raise InvalidToken("this key is not a player's current key")
    if isinstance(session, Session):
        if signed.current and signed.previous_hash is not None:
            retire_previous_secret(session, signed)
            signed = signed._replace(previous_hash=None)
        at = now()
        if signed.last_used_at is None or at - signed.last_used_at >= KEY_USE_RESOLUTION:
            store.touch_key(session, signed.key_id, at)
    return signed


def signed_in(session: Executor, key: str) -> SignedIn | None:
    """The key's row and account if ``key`` is its current secret or the one its last
    rotation replaced (not yet retired), else None. Writes nothing."""
    key_id = player_key_id(key)
    row = None if key_id is None else store.key_row(session, key_id)
    if key_id is None or row is None:
        return None
    if token_matches(key, row.key_hash):
        current = True
    elif row.previous_hash is not None and token_matches(key, row.previous_hash):
        current = False
    else:
        return None
    return SignedIn(row.player, key_id, row.key_hash, row.previous_hash, current, row.last_used_at)


def retire_previous_secret(session: Session, signed: SignedIn) -> None:
    """The key's new secret has been used: the one it replaced is refused from now on (if
    the key's secret is still the one that was used: a concurrent rotation leaves its own
    pair)."""
    store.retire_previous_hash(session, signed.key_id, signed.key_hash)


def find_player(session: Executor, name: str) -> PlayerRecord:
    """The account of a name (in any case or width), or 404."""
    key = name_key(name)
    # A name no account can have is not looked up at all.
    player = (
        None if STORED_NAME.fullmatch(key) is None else store.get_player_by_name_key(session, key)
    )
    if player is None:
        raise PlayerNotFound(f"there is no player {echo(name)!r}")
    return player


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
    owner = store.name_like(session, key, skeleton)
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
    # The account's key is its registered name's (the registration stored it so).
    if requested is not None and name_key(requested) != name_key(player.name):
        raise PlayerNameMismatch(
            f"the key belongs to {player.name!r}, not {echo(requested)!r}: omit 'player' or "
            "send the account's name"
        )
    return Identity(player.name, player.id)
