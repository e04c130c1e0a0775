"""The SQL of player accounts: their rows, their keys' hashes, their stats and their games."""

from __future__ import annotations

import functools
import uuid
from datetime import date, datetime
from typing import Any, NamedTuple, cast

from sqlalchemy import Select, Table, bindparam, case, func, insert, select, tuple_, update
from sqlalchemy.orm import Session
from sqlalchemy.sql.elements import BindParameter, Case

from api.core.accounts import PlayerRecord
from api.core.database import Executor
from api.core.models import GameRow, PlayerRow, PlayerStatsRow, RaceRow, RacerRow


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


class PlayerGameRecord(NamedTuple):
    """A line of a player's games page."""

    id: uuid.UUID
    status: str
    end_reason: str | None
    score: int | None
    placements_count: int
    assisted: bool
    created_at: datetime
    finished_at: datetime | None
    challenge_date: date | None
    review: str | None


PlayerGamesKey = tuple[datetime, uuid.UUID]  # (created_at, id), newest first

_games = cast(Table, GameRow.__table__)
_players = cast(Table, PlayerRow.__table__)
_stats = cast(Table, PlayerStatsRow.__table__)
_races = cast(Table, RaceRow.__table__)
_racers = cast(Table, RacerRow.__table__)


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


def replace_player_key_hash(
    session: Session, player: PlayerRecord, new_hash: str, kept_hash: str
) -> bool:
    """Give the account the key ``new_hash``, keeping ``kept_hash`` as the one it replaced, if
    its keys are still those of ``player`` (as read): of two rotations, or of a rotation and
    the new key's first use, one wins and the other changes nothing."""
    result = session.execute(
        update(_players)
        .where(
            _players.c.id == player.id,
            _players.c.key_hash == player.key_hash,
            _players.c.previous_key_hash.is_not_distinct_from(player.previous_key_hash),
        )
        .values(key_hash=new_hash, previous_key_hash=kept_hash)
    )
    return int(result.rowcount) == 1  # type: ignore[attr-defined]


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


@functools.cache
def _player_games_statement(by_status: bool, after: bool) -> Select[Any]:
    """One range scan of ``ix_games_player_games`` from the newest game down."""
    # A race's game is its racer's only until the race ends: no id of it is listed before.
    statement = select(*(_games.c[name] for name in PlayerGameRecord._fields)).where(
        _games.c.player_id == bindparam("player"), _games.c.sealed.is_(False)
    )
    if by_status:
        statement = statement.where(_games.c.status == bindparam("status"))
    if after:
        created = bindparam("created_at", type_=_games.c.created_at.type)
        game_id = bindparam("game_id", type_=_games.c.id.type)
        statement = statement.where(
            tuple_(_games.c.created_at, _games.c.id) < tuple_(created, game_id)
        )
    return statement.order_by(_games.c.created_at.desc(), _games.c.id.desc()).limit(
        bindparam("limit")
    )


def player_games(
    session: Executor,
    player_id: uuid.UUID,
    status: str | None,
    after: PlayerGamesKey | None,
    limit: int,
) -> list[PlayerGameRecord]:
    """A player's games, newest first, after the key ``after`` (exclusive)."""
    parameters: dict[str, Any] = {"player": player_id, "limit": limit}
    if status is not None:
        parameters["status"] = status
    if after is not None:
        parameters["created_at"], parameters["game_id"] = after
    statement = _player_games_statement(status is not None, after is not None)
    return [PlayerGameRecord(*row) for row in session.execute(statement, parameters)]


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
