"""The SQL of player accounts: their rows, their keys' hashes, their recovery codes and passkeys
and their stats (a player's games are the games face's, :func:`api.games.player_games`)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import NamedTuple, cast

from sqlalchemy import (
    Table,
    bindparam,
    case,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import BindParameter, Case

from api.core.accounts import PlayerRecord, SignedIn
from api.core.credential_models import PasskeyChallengeRow, PasskeyRow, RecoveryCodeRow
from api.core.database import Executor
from api.core.models import (
    PlayerKeyRow,
    PlayerRow,
    PlayerStatsRow,
    RaceRow,
    RacerRow,
)


class PlayerStatsRecord(NamedTuple):
    """One row of ``player_stats`` (without its player id)."""

    games_played: int
    games_won: int
    games_lost: int
    won_score_total: int
    best_score: int | None
    current_streak: int
    longest_streak: int
    last_played_at: datetime | None


class KeyRecord(NamedTuple):
    """One of a player's keys, as listed (never its hash)."""

    id: uuid.UUID
    name: str
    created_at: datetime
    last_used_at: datetime | None


class PasskeyRecord(NamedTuple):
    """One of a player's passkeys."""

    id: uuid.UUID
    player_id: uuid.UUID
    credential_id: str
    public_key: str
    sign_count: int
    name: str
    created_at: datetime
    last_used_at: datetime | None


class ChallengeRecord(NamedTuple):
    challenge: str
    purpose: str
    player_id: uuid.UUID | None
    expires_at: datetime


_players = cast(Table, PlayerRow.__table__)
_stats = cast(Table, PlayerStatsRow.__table__)
_races = cast(Table, RaceRow.__table__)
_racers = cast(Table, RacerRow.__table__)
_keys = cast(Table, PlayerKeyRow.__table__)
_codes = cast(Table, RecoveryCodeRow.__table__)
_passkeys = cast(Table, PasskeyRow.__table__)
_challenges = cast(Table, PasskeyChallengeRow.__table__)


def insert_player(session: Session, player: PlayerRecord) -> None:
    """A new player and their zeroed stats (an IntegrityError if the name key is taken)."""
    connection = session.connection()
    connection.execute(insert(_players), player._asdict())
    zero = PlayerStatsRecord(0, 0, 0, 0, None, 0, 0, None)
    connection.execute(insert(_stats), {"player_id": player.id, **zero._asdict()})


def get_player_by_name_key(session: Executor, name_key: str) -> PlayerRecord | None:
    row = session.execute(
        select(*(_players.c[name] for name in PlayerRecord._fields)).where(
            _players.c.name_key == name_key
        )
    ).first()
    return None if row is None else PlayerRecord(*row)


def name_with_skeleton(session: Executor, skeleton: str) -> str | None:
    """The name of the account whose name has this look-alike skeleton, if any."""
    found = session.execute(
        select(_players.c.name).where(_players.c.name_skeleton == skeleton)
    ).scalar()
    return found


def name_key_taken(session: Executor, name_key: str) -> bool:
    found = session.execute(select(_players.c.id).where(_players.c.name_key == name_key)).first()
    return found is not None


def lock_player(session: Session, player_id: uuid.UUID) -> None:
    """Hold the player's row until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL; SQLite's write transactions hold the whole database): the changes to an
    account's keys, one after the other, so that two revocations never leave it none."""
    session.connection().execute(
        select(_players.c.id).where(_players.c.id == player_id).with_for_update()
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
        insert(_keys),
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


def player_keys(session: Executor, player_id: uuid.UUID) -> list[KeyRecord]:
    """The player's keys, oldest first."""
    rows = session.execute(
        select(*(_keys.c[name] for name in KeyRecord._fields))
        .where(_keys.c.player_id == player_id)
        .order_by(_keys.c.created_at, _keys.c.id)
    )
    return [KeyRecord(*row) for row in rows]


def count_keys(session: Executor, player_id: uuid.UUID) -> int:
    found: int = session.execute(
        select(func.count()).select_from(_keys).where(_keys.c.player_id == player_id)
    ).scalar_one()
    return found


def delete_key(session: Session, player_id: uuid.UUID, key_id: uuid.UUID) -> bool:
    """Delete one of the player's keys; whether it was theirs."""
    result = session.execute(
        delete(_keys).where(_keys.c.id == key_id, _keys.c.player_id == player_id)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def replace_key_hash(session: Session, signed: SignedIn, new_hash: str, kept_hash: str) -> bool:
    """Give the key that signed the request the secret ``new_hash``, keeping ``kept_hash`` as
    the one it replaced, if its hashes are still those read (``signed``): of two rotations, or
    of a rotation and the new secret's first use, one wins and the other changes nothing."""
    result = session.execute(
        update(_keys)
        .where(
            _keys.c.id == signed.key_id,
            _keys.c.key_hash == signed.key_hash,
            _keys.c.previous_hash.is_not_distinct_from(signed.previous_hash),
        )
        .values(key_hash=new_hash, previous_hash=kept_hash)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


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


def insert_passkey(session: Session, passkey: PasskeyRecord) -> None:
    session.connection().execute(insert(_passkeys), passkey._asdict())


_PASSKEY_COLUMNS = tuple(_passkeys.c[name] for name in PasskeyRecord._fields)


def player_passkeys(session: Executor, player_id: uuid.UUID) -> list[PasskeyRecord]:
    rows = session.execute(
        select(*_PASSKEY_COLUMNS)
        .where(_passkeys.c.player_id == player_id)
        .order_by(_passkeys.c.created_at, _passkeys.c.id)
    )
    return [PasskeyRecord(*row) for row in rows]


def passkey_by_credential(session: Executor, credential_id: str) -> PasskeyRecord | None:
    row = session.execute(
        select(*_PASSKEY_COLUMNS).where(_passkeys.c.credential_id == credential_id)
    ).first()
    return None if row is None else PasskeyRecord(*row)


def passkey_used(session: Session, passkey_id: uuid.UUID, sign_count: int, at: datetime) -> None:
    session.execute(
        update(_passkeys)
        .where(_passkeys.c.id == passkey_id)
        .values(sign_count=sign_count, last_used_at=at)
    )


def delete_passkey(session: Session, player_id: uuid.UUID, passkey_id: uuid.UUID) -> bool:
    result = session.execute(
        delete(_passkeys).where(_passkeys.c.id == passkey_id, _passkeys.c.player_id == player_id)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


def insert_challenge(
    session: Session, challenge_id: uuid.UUID, challenge: ChallengeRecord, at: datetime
) -> None:
    """Store a ceremony's challenge, and forget those expired (so the table holds only the
    ceremonies of the last few minutes)."""
    connection = session.connection()
    connection.execute(delete(_challenges).where(_challenges.c.expires_at < at))
    connection.execute(insert(_challenges), {"id": challenge_id, **challenge._asdict()})


def take_challenge(session: Session, challenge_id: uuid.UUID) -> ChallengeRecord | None:
    """A challenge, deleted as it is read: each is answered once, whatever the outcome."""
    row = session.execute(
        select(*(_challenges.c[name] for name in ChallengeRecord._fields)).where(
            _challenges.c.id == challenge_id
        )
    ).first()
    if row is None:
        return None
    result = session.execute(delete(_challenges).where(_challenges.c.id == challenge_id))
    if int(result.rowcount) != 1:  # type: ignore[attr-defined]
        return None  # taken by a concurrent answer
    return ChallengeRecord(*row)


def get_player_stats(session: Executor, player_id: uuid.UUID) -> PlayerStatsRecord | None:
    row = session.execute(
        select(*(_stats.c[name] for name in PlayerStatsRecord._fields)).where(
            _stats.c.player_id == player_id
        )
    ).first()
    return None if row is None else PlayerStatsRecord(*row)


def _latest(at: BindParameter[datetime]) -> Case[datetime]:
    """``last_played_at`` moved to ``at`` unless it is already later."""
    column = _stats.c.last_played_at
    return case((column.is_(None), at), (column < at, at), else_=column)


# Every statistic is updated in one statement that computes from the row's values at the
# moment it is written (``x = x + 1``): PostgreSQL locks the row for the UPDATE and
# re-evaluates the expressions on the latest version, so concurrent game ends never lose
# one another's counts; SQLite runs one writer at a time.
_GAME_STARTED = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_played=_stats.c.games_played + 1,
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)
_GAME_WON = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_won=_stats.c.games_won + 1,
        won_score_total=_stats.c.won_score_total + bindparam("score"),
        best_score=case(
            (_stats.c.best_score.is_(None), bindparam("score")),
            (_stats.c.best_score < bindparam("score"), bindparam("score")),
            else_=_stats.c.best_score,
        ),
        current_streak=_stats.c.current_streak + 1,
        longest_streak=case(
            (_stats.c.current_streak + 1 > _stats.c.longest_streak, _stats.c.current_streak + 1),
            else_=_stats.c.longest_streak,
        ),
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)
_GAME_LOST = (
    update(_stats)
    .where(_stats.c.player_id == bindparam("player"))
    .values(
        games_lost=_stats.c.games_lost + 1,
        current_streak=0,
        last_played_at=_latest(bindparam("at", type_=_stats.c.last_played_at.type)),
    )
)


def lock_player_stats(session: Session, player_id: uuid.UUID) -> None:
    """Hold a player's stats row until the transaction ends (``SELECT ... FOR UPDATE`` on
    PostgreSQL; SQLite's write transactions already hold the whole database)."""
    session.connection().execute(
        select(_stats.c.player_id).where(_stats.c.player_id == player_id).with_for_update()
    )


def count_game_started(session: Session, player_id: uuid.UUID, at: datetime) -> None:
    session.connection().execute(_GAME_STARTED, {"player": player_id, "at": at})


def count_game_finished(
    session: Session, player_id: uuid.UUID, score: int | None, at: datetime
) -> None:
    """Count a won game (``score`` given) or a lost one (``score`` None) in the player's stats."""
    if score is None:
        session.connection().execute(_GAME_LOST, {"player": player_id, "at": at})
    else:
        session.connection().execute(_GAME_WON, {"player": player_id, "score": score, "at": at})


def player_race_counts(session: Executor, player_id: uuid.UUID) -> tuple[int, int]:
    """The player's races finished, and won: ranked first against another racer at least (a
    race alone is no race won), their page's figures, read from the races' tables (by
    ``ix_race_racers_player_id``, and the racers of each race won by its primary key)."""
    rival = _racers.alias("rival")
    others = (
        select(rival.c.number)
        .where(rival.c.race_id == _racers.c.race_id, rival.c.number != _racers.c.number)
        .exists()
    )
    statement = (
        select(func.count(), func.count().filter(_racers.c.rank == 1, others))
        .join(_races, _races.c.id == _racers.c.race_id)
        .where(_racers.c.player_id == player_id, _races.c.status == "finished")
    )
    played, won = session.execute(statement).one()
    return played, won
