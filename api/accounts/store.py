"""The SQL of accounts: players' rows, their keys' hashes, their recovery codes, their passkeys
and the passkey ceremonies' challenges. Functions take the caller's session or connection and
never commit."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, ScalarSelect, bindparam, delete, func, insert, select, update
from sqlalchemy.orm import Session

from api.accounts.tables import (
    passkey_challenges,
    player_keys,
    player_passkeys,
    player_recovery_codes,
    players,
)
from api.core.database import Executor


class PlayerRecord(NamedTuple):
    """An account as a request sees it (its name's caseless key and look-alike skeleton are
    the registration's business: read only to find or refuse a name)."""

    id: uuid.UUID
    name: str
    created_at: datetime


class KeyRecord(NamedTuple):
    """One of a player's keys, as listed (never its hash)."""

    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None


class PasskeyListed(NamedTuple):
    """One of a player's passkeys, as listed (its key is the sign-in's business)."""

    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None


class PasskeyKey(NamedTuple):
    """What a passkey sign-in checks an answer with, and whose account it opens."""

    id: uuid.UUID
    player_id: uuid.UUID
    public_key: str
    sign_count: int


class TakenChallenge(NamedTuple):
    """What an answer to a passkey ceremony is checked against (its purpose was the read's
    condition)."""

    challenge: str
    player_id: uuid.UUID | None
    expires_at: datetime


class KeyRow(NamedTuple):
    """The key that signs a request, and its account (one statement)."""

    player: PlayerRecord
    key_hash: str
    previous_hash: str | None
    last_used_at: datetime | None


_PLAYER = (players.c.id, players.c.name, players.c.created_at)
_KEY = (player_keys.c.id, player_keys.c.name, player_keys.c.created_at, player_keys.c.last_used_at)
_LISTED = tuple(player_passkeys.c[name] for name in PasskeyListed._fields)
_PASSKEY_KEY = tuple(player_passkeys.c[name] for name in PasskeyKey._fields)
_TAKEN = tuple(passkey_challenges.c[name] for name in TakenChallenge._fields)

# The key's row and its account in one statement, by the key row's primary key.
_SIGNED_IN = (
    select(
        *_PLAYER, player_keys.c.key_hash, player_keys.c.previous_hash, player_keys.c.last_used_at
    )
    .join(players, players.c.id == player_keys.c.player_id)
    .where(player_keys.c.id == bindparam("key_id"))
)
_TOUCH = (
    update(player_keys)
    .where(player_keys.c.id == bindparam("key_id"))
    .values(last_used_at=bindparam("at", type_=player_keys.c.last_used_at.type))
)


def bearer_key_hashes(player_id: ColumnElement[Any]) -> tuple[ScalarSelect[Any], ScalarSelect[Any]]:
    """The current and the replaced secret's hashes of the key a request's bearer names (the
    parameter ``key_id``), if it is one of the keys of the account ``player_id`` (a column of
    the caller's statement); NULL otherwise. Scalar subqueries for the games' store: a game's
    row and its player's key are read in the one statement every request on a game makes,
    rather than a second round trip to authorize it."""
    mine = (player_keys.c.id == bindparam("key_id"), player_keys.c.player_id == player_id)
    return (
        select(player_keys.c.key_hash).where(*mine).scalar_subquery(),
        select(player_keys.c.previous_hash).where(*mine).scalar_subquery(),
    )


# ---------------------------------------------------------------- players


def insert_player(session: Session, player: PlayerRecord, key: str, skeleton: str) -> None:
    """A new account (an IntegrityError if its name's key or skeleton is taken)."""
    session.connection().execute(
        insert(players), {**player._asdict(), "name_key": key, "name_skeleton": skeleton}
    )


def get_player(session: Executor, player_id: uuid.UUID) -> PlayerRecord | None:
    row = session.execute(select(*_PLAYER).where(players.c.id == player_id)).first()
    return None if row is None else PlayerRecord(*row)


def get_player_by_name_key(session: Executor, name_key: str) -> PlayerRecord | None:
    row = session.execute(select(*_PLAYER).where(players.c.name_key == name_key)).first()
    return None if row is None else PlayerRecord(*row)


def name_like(session: Executor, key: str, skeleton: str) -> str | None:
    """The name of an account whose name has this key or this skeleton, if any (one
    statement, both columns indexed)."""
    found: str | None = session.execute(
        select(players.c.name)
        .where((players.c.name_key == key) | (players.c.name_skeleton == skeleton))
        .limit(1)
    ).scalar()
    return found


def name_with_skeleton(session: Executor, skeleton: str) -> str | None:
    """The name of the account whose name has this look-alike skeleton, if any."""
    found: str | None = session.execute(
        select(players.c.name).where(players.c.name_skeleton == skeleton)
    ).scalar()
    return found


def name_key_taken(session: Executor, name_key: str) -> bool:
    found = session.execute(select(players.c.id).where(players.c.name_key == name_key)).first()
    return found is not None


def lock_player(session: Session, player_id: uuid.UUID) -> None:
    """Hold the player's row until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL; SQLite's write transactions hold the whole database): the changes to an
    account's keys, one after the other, so that two revocations never leave it none."""
    session.connection().execute(
        select(players.c.id).where(players.c.id == player_id).with_for_update()
    )


# ---------------------------------------------------------------- keys


def key_row(session: Executor, key_id: uuid.UUID) -> KeyRow | None:
    """The key ``key_id`` and its account, if there is such a key."""
    row = session.execute(_SIGNED_IN, {"key_id": key_id}).first()
    if row is None:
        return None
    return KeyRow(PlayerRecord(*row[: len(_PLAYER)]), *row[len(_PLAYER) :])


def touch_key(session: Session, key_id: uuid.UUID, at: datetime) -> None:
    """Record the key's use at ``at``."""
    session.connection().execute(_TOUCH, {"key_id": key_id, "at": at})


def retire_previous_hash(session: Session, key_id: uuid.UUID, key_hash: str) -> None:
    """Forget the key's replaced secret if its current one is still ``key_hash`` (a
    concurrent rotation leaves its own pair)."""
    session.execute(
        update(player_keys)
        .where(player_keys.c.id == key_id, player_keys.c.key_hash == key_hash)
        .values(previous_hash=None)
    )


def insert_key(
    session: Session,
    key_id: uuid.UUID,
    player_id: uuid.UUID,
    name: str,
    key_hash: str,
    at: datetime,
) -> None:
    session.connection().execute(
        insert(player_keys),
        {
            "id": key_id,
            "player_id": player_id,
            "name": name,
            "key_hash": key_hash,
            "previous_hash": None,
            "created_at": at,
            "last_used_at": None,
        },
    )


def keys_of(session: Executor, player_id: uuid.UUID) -> list[KeyRecord]:
    """The player's keys, oldest first."""
    rows = session.execute(
        select(*_KEY)
        .where(player_keys.c.player_id == player_id)
        .order_by(player_keys.c.created_at, player_keys.c.id)
    )
    return [KeyRecord(*row) for row in rows]


def delete_key(session: Session, player_id: uuid.UUID, key_id: uuid.UUID) -> bool:
    """Delete one of the player's keys; whether it was theirs."""
    result = session.execute(
        delete(player_keys).where(player_keys.c.id == key_id, player_keys.c.player_id == player_id)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def replace_key_hash(
    session: Session,
    key_id: uuid.UUID,
    was: tuple[str, str | None],
    new_hash: str,
    kept_hash: str,
) -> bool:
    """Give the key the secret ``new_hash``, keeping ``kept_hash`` as the one it replaced, if
    its hashes are still those read (``was``: the current and the replaced one): of two
    rotations, or of a rotation and the new secret's first use, one wins and the other
    changes nothing."""
    result = session.execute(
        update(player_keys)
        .where(
            player_keys.c.id == key_id,
            player_keys.c.key_hash == was[0],
            player_keys.c.previous_hash.is_not_distinct_from(was[1]),
        )
        .values(key_hash=new_hash, previous_hash=kept_hash)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


# ---------------------------------------------------------------- recovery codes

_codes = player_recovery_codes


def replace_recovery_codes(
    session: Session, player_id: uuid.UUID, code_hashes: list[str], at: datetime
) -> None:
    """The player's recovery codes are these and no others."""
    connection = session.connection()
    connection.execute(delete(_codes).where(_codes.c.player_id == player_id))
    connection.execute(
        insert(_codes),
        [{"player_id": player_id, "code_hash": h, "created_at": at} for h in code_hashes],
    )


def recovery_code_hashes(session: Executor, player_id: uuid.UUID) -> list[str]:
    """The hashes of the player's unspent codes (ten at most), compared by the caller in
    constant time: no lookup is made by a secret's hash."""
    return list(
        session.execute(select(_codes.c.code_hash).where(_codes.c.player_id == player_id))
        .scalars()
        .all()
    )


def count_recovery_codes(session: Executor, player_id: uuid.UUID) -> int:
    found: int = session.execute(
        select(func.count()).select_from(_codes).where(_codes.c.player_id == player_id)
    ).scalar_one()
    return found


def spend_recovery_code(session: Session, player_id: uuid.UUID, code_hash: str) -> bool:
    """Delete the code; whether this request spent it (of two with one code, one does)."""
    result = session.execute(
        delete(_codes).where(_codes.c.player_id == player_id, _codes.c.code_hash == code_hash)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


# ---------------------------------------------------------------- passkeys and ceremonies


def insert_passkey(
    session: Session, passkey: PasskeyListed, key: PasskeyKey, credential_id: str
) -> None:
    session.connection().execute(
        insert(player_passkeys),
        {**passkey._asdict(), **key._asdict(), "credential_id": credential_id},
    )


def passkeys_of(session: Executor, player_id: uuid.UUID) -> list[PasskeyListed]:
    rows = session.execute(
        select(*_LISTED)
        .where(player_passkeys.c.player_id == player_id)
        .order_by(player_passkeys.c.created_at, player_passkeys.c.id)
    )
    return [PasskeyListed(*row) for row in rows]


def credential_ids_of(session: Executor, player_id: uuid.UUID) -> list[str]:
    """The credential ids of a player's passkeys (a registration excludes them)."""
    rows = session.execute(
        select(player_passkeys.c.credential_id).where(player_passkeys.c.player_id == player_id)
    )
    return list(rows.scalars())


def passkey_by_credential(session: Executor, credential_id: str) -> PasskeyKey | None:
    row = session.execute(
        select(*_PASSKEY_KEY).where(player_passkeys.c.credential_id == credential_id)
    ).first()
    return None if row is None else PasskeyKey(*row)


def passkey_used(session: Session, passkey_id: uuid.UUID, sign_count: int, at: datetime) -> None:
    session.execute(
        update(player_passkeys)
        .where(player_passkeys.c.id == passkey_id)
        .values(sign_count=sign_count, last_used_at=at)
    )


def delete_passkey(session: Session, player_id: uuid.UUID, passkey_id: uuid.UUID) -> bool:
    result = session.execute(
        delete(player_passkeys).where(
            player_passkeys.c.id == passkey_id, player_passkeys.c.player_id == player_id
        )
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def insert_challenge(
    session: Session, challenge_id: uuid.UUID, purpose: str, challenge: TakenChallenge, at: datetime
) -> None:
    """Store a ceremony's challenge, and forget those expired (so the table holds only the
    ceremonies of the last few minutes)."""
    connection = session.connection()
    connection.execute(delete(passkey_challenges).where(passkey_challenges.c.expires_at < at))
    connection.execute(
        insert(passkey_challenges), {"id": challenge_id, "purpose": purpose, **challenge._asdict()}
    )


def take_challenge(
    session: Session, challenge_id: uuid.UUID, purpose: str
) -> TakenChallenge | None:
    """A challenge of this purpose, deleted as it is read: each is answered once, whatever
    the outcome (one of another purpose too, and then None)."""
    row = session.execute(
        select(*_TAKEN).where(
            passkey_challenges.c.id == challenge_id, passkey_challenges.c.purpose == purpose
        )
    ).first()
    result = session.execute(
        delete(passkey_challenges).where(passkey_challenges.c.id == challenge_id)
    )
    if row is None or int(result.rowcount) != 1:  # type: ignore[attr-defined]
        return None  # unknown, of another purpose, or taken by a concurrent answer
    return TakenChallenge(*row)
