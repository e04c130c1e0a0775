"""Bulk-loading finished (won) games straight into a migrated database.

Rows are written in batches of 10,000 by the driver itself (SQLite: ``executemany`` of one
``INSERT``; PostgreSQL: ``COPY ... FROM STDIN``), with the column list of the service's own
tables (:data:`api.games.tables.games`, :data:`api.leaderboards.tables.scores`) and every value
encoded by the bind processor SQLAlchemy would use for its column, so what is stored is what the
service would store. Every ``NOT NULL`` column of ``games`` or ``scores`` without a server
default that this module does not know (a later migration may add one) gets plain values of
its type (random hex for strings), and is named on stderr; unknown columns with a server
default are left to the database (``assisted``, for one, stays false: no loaded game had a
hint).

Game states are real: a greedy player wins a few seeded deals with the engine, and every
loaded game reuses the state of the won game whose score is closest to its own. Scores are
0..24, lower ones more frequent; ``finished_at`` is distinct for every row, one second apart
(a million games span twelve days: day and week boards of many sizes); players are
``bot0000`` to ``bot9999``. What the boards keep of each win (ordinals, counts by score and
day, each player's best) is computed here as the service would, in finish order.
"""

from __future__ import annotations

import json
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from functools import cache
from typing import Any

from psycopg import sql as psycopg_sql
from sqlalchemy import Column, Table, create_engine, func, select, text, update
from sqlalchemy.engine import Dialect

from api.core.names import name_skeleton
from api.games.tables import games as games_table
from api.leaderboards.store import ALL_TIME, week_of
from api.leaderboards.tables import leaderboard_bests, leaderboard_days, leaderboard_totals, scores
from engine import Game, Status

MAX_SCORE = 24
SCORE_WEIGHTS = [0.85**score for score in range(MAX_SCORE + 1)]
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
BATCH = 10_000
GAME_COLUMNS = frozenset(
    {
        "id", "player", "token_hash", "seed", "state", "version", "status", "end_reason",
        "score", "placements_count", "created_at", "updated_at", "finished_at",
    }
)  # fmt: skip
SCORE_COLUMNS = frozenset(
    {
        "game_id", "player", "score", "sort_score", "finished_at", "player_key", "day", "week",
        "ordinal", "ordinal_unassisted", "day_ordinal", "day_ordinal_unassisted",
    }
)  # fmt: skip
DAY_COLUMNS = frozenset({"week", "day", "score", "wins", "wins_unassisted"})
BEST_COLUMNS = frozenset(
    {
        "board", "starts_on", "with_assisted", "player_key", "game_id", "player", "score",
        "sort_score", "finished_at", "assisted",
    }
)  # fmt: skip


@dataclass(frozen=True)
class WonGame:
    state: str  # engine.Game.to_dict() as JSON, as the service stores it
    score: int
    placements: int


def _greedy_move(game: Game, chooser: random.Random) -> tuple[int, int]:
    best: tuple[float, tuple[int, int]] | None = None
    for position in game.legal_placements():
        trial = game.copy()
        trial.place(position)
        if trial.status is Status.WON:
            return position
        value = (
            1e9
            if trial.status is Status.LOST
            else 10 * trial.face_down_count - len(trial.piles) + chooser.random()
        )
        if best is None or value < best[0]:
            best = (value, position)
    assert best is not None
    return best[1]


@cache
def won_games(count: int = 8, seed: int = 0) -> tuple[WonGame, ...]:
    """``count`` real won games, played by a greedy player from seeded deals."""
    chooser = random.Random(seed)
    found: list[WonGame] = []
    deal = 0
    while len(found) < count:
        game = Game.from_seed(f"bench-{seed}-{deal}")
        deal += 1
        while not game.is_over:
            game.place(_greedy_move(game, chooser))
        if game.status is Status.WON and game.score is not None:
            state = json.dumps(game.to_dict(), separators=(",", ":"))
            found.append(WonGame(state, game.score, game.placements_count))
    return tuple(found)


def _filler(column: Column[Any], rng: random.Random, finished_at: datetime) -> object:
    """A plain value for a NOT NULL column this loader does not know."""
    try:
        kind = column.type.python_type
    except NotImplementedError:
        return ""
    if kind is str:
        length = getattr(column.type, "length", None) or 32
        return f"{rng.getrandbits(4 * min(length, 64)):0{min(length, 64)}x}"
    plain: dict[type, object] = {
        bool: False,
        int: 0,
        float: 0.0,
        datetime: finished_at,
        uuid.UUID: uuid.UUID(int=rng.getrandbits(128), version=4),
        dict: {},
        list: [],
    }
    return plain.get(kind, "")


Processor = Callable[[Any], Any] | None


class _Encoder:
    """Turns rows of Python values into the driver's values, in column order, with the bind
    processors SQLAlchemy itself would use for these columns on this dialect."""

    def __init__(
        self, table: Table, known: frozenset[str], extra: list[Column[Any]], dialect: Dialect
    ) -> None:
        self.table = table
        wanted = known | {column.name for column in extra}
        self.names = [column.name for column in table.columns if column.name in wanted]
        self.processors: list[Processor] = [
            table.c[name].type.dialect_impl(dialect).bind_processor(dialect) for name in self.names
        ]

    def encode(self, values: dict[str, Any]) -> tuple[object, ...]:
        return tuple(
            values[name] if process is None else process(values[name])
            for name, process in zip(self.names, self.processors, strict=True)
        )


def _unknown_required(table: Table, known: frozenset[str]) -> list[Column[Any]]:
    """Columns a later migration added that the database cannot fill by itself."""
    extra = [
        column
        for column in table.columns
        if column.name not in known and not column.nullable and column.server_default is None
    ]
    for column in extra:
        print(
            f"bulk: {table.name}.{column.name} is NOT NULL and unknown to the loader; "
            "filling it with plain values of its type",
            file=sys.stderr,
        )
    return extra


class Boards:
    """What the service keeps for the boards as wins are recorded (``scores``' ordinals,
    ``leaderboard_totals``, ``leaderboard_days``, ``leaderboard_bests``), kept here for wins
    loaded in finish order (see :func:`api.leaderboards.store.record_win`): no hints, so every
    game is on both listings."""

    def __init__(self) -> None:
        self.wins = [0] * (MAX_SCORE + 1)
        self.last: list[datetime | None] = [None] * (MAX_SCORE + 1)
        self.days: dict[tuple[date, int], int] = {}
        self.bests: dict[tuple[str, date, str], dict[str, Any]] = {}

    def count(self, row: dict[str, Any]) -> None:
        """Fill a new ``scores`` row's board columns, and count it."""
        score, finished_at = row["score"], row["finished_at"]
        day = finished_at.date()
        week = week_of(day)
        self.wins[score] += 1
        self.last[score] = finished_at
        day_wins = self.days[day, score] = self.days.get((day, score), 0) + 1
        row.update(
            player_key=name_skeleton(row["player"]),
            day=day,
            week=week,
            ordinal=self.wins[score],
            ordinal_unassisted=self.wins[score],
            day_ordinal=day_wins,
            day_ordinal_unassisted=day_wins,
        )
        for board, starts_on in (("all", ALL_TIME), ("day", day), ("week", week)):
            slot = (board, starts_on, row["player_key"])
            held = self.bests.get(slot)
            if held is None or score > held["score"]:  # finish order: ties keep the first
                self.bests[slot] = row

    def day_rows(self) -> list[dict[str, Any]]:
        return [
            {"week": week_of(day), "day": day, "score": score, "wins": n, "wins_unassisted": n}
            for (day, score), n in self.days.items()
        ]

    def best_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "board": board,
                "starts_on": starts_on,
                "with_assisted": with_assisted,
                "player_key": key,
                "assisted": False,
                **{name: row[name] for name in BEST_COLUMNS if name in row},
            }
            for (board, starts_on, key), row in self.bests.items()
            for with_assisted in (True, False)
        ]


class BulkLoader:
    """Appends won games (a ``games`` row and a ``scores`` row each) to one database without
    wins, and what the boards keep of them.

    SQLite: the driver's ``executemany`` of one ``INSERT`` per table, per batch. PostgreSQL:
    ``COPY ... FROM STDIN`` per table, per batch. Either way with the column list of the
    service's models and values encoded as SQLAlchemy encodes them.
    """

    def __init__(self, database_url: str, seed: int = 0) -> None:
        self.database_url = database_url
        self.engine = create_engine(database_url)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self.rng = random.Random(seed)
        self.by_score = {
            score: min(won_games(), key=lambda game: abs(game.score - score))
            for score in range(MAX_SCORE + 1)
        }
        self.game_extra = _unknown_required(games_table, GAME_COLUMNS)
        self.score_extra = _unknown_required(scores, SCORE_COLUMNS)
        self.games = _Encoder(games_table, GAME_COLUMNS, self.game_extra, self.engine.dialect)
        self.scores = _Encoder(scores, SCORE_COLUMNS, self.score_extra, self.engine.dialect)
        dialect = self.engine.dialect
        self.day_counts = _Encoder(leaderboard_days, DAY_COLUMNS, [], dialect)
        self.bests = _Encoder(leaderboard_bests, BEST_COLUMNS, [], dialect)
        self.boards = Boards()
        self.game_ids: list[uuid.UUID] = []  # of the games loaded, in finish order

    def close(self) -> None:
        self.engine.dispose()

    def count(self) -> int:
        """How many scores (won games) the database holds."""
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(scores)) or 0)

    def _batches(
        self, first: int, count: int
    ) -> Iterator[tuple[list[tuple[object, ...]], list[tuple[object, ...]]]]:
        rng = self.rng
        drawn = rng.choices(range(MAX_SCORE + 1), SCORE_WEIGHTS, k=count)
        games: list[tuple[object, ...]] = []
        scores: list[tuple[object, ...]] = []
        for number, score in enumerate(drawn, start=first):
            model = self.by_score[score]
            placements = max(16, model.placements + model.score - score)
            finished_at = EPOCH + timedelta(seconds=number, microseconds=rng.randrange(1_000_000))
            game_id = uuid.UUID(int=rng.getrandbits(128), version=4)
            self.game_ids.append(game_id)
            player = f"bot{rng.randrange(10_000):04d}"
            game: dict[str, Any] = {
                "id": game_id,
                "player": player,
                "token_hash": f"{rng.getrandbits(256):064x}",
                "seed": f"{rng.getrandbits(128):032x}",
                "state": model.state,
                "version": placements + 1,
                "status": "won",
                "end_reason": None,
                "score": score,
                "placements_count": placements,
                "created_at": finished_at - timedelta(seconds=30 + 3 * placements),
                "updated_at": finished_at,
                "finished_at": finished_at,
            }
            won: dict[str, Any] = {
                "game_id": game_id,
                "player": player,
                "score": score,
                "sort_score": -score,
                "finished_at": finished_at,
            }
            for column in self.game_extra:
                game[column.name] = _filler(column, rng, finished_at)
            self.boards.count(won)
            for column in self.score_extra:
                won[column.name] = _filler(column, rng, finished_at)
            games.append(self.games.encode(game))
            scores.append(self.scores.encode(won))
            if len(games) == BATCH:
                yield games, scores
                games, scores = [], []
        if games:
            yield games, scores

    def load(self, count: int) -> float:
        """Load ``count`` won games, then refresh the planner statistics; return seconds."""
        start = time.perf_counter()
        if self.count():
            # The boards' counters would have to be merged with the service's own.
            raise RuntimeError("bench.bulk loads into a migrated database without wins")
        batches = self._batches(0, count)
        raw = self.engine.raw_connection()
        try:
            driver: Any = raw.driver_connection

            def write(encoder: _Encoder, rows: list[tuple[object, ...]]) -> None:
                if self.is_postgres:
                    _copy(driver, encoder, rows)
                else:
                    _executemany(driver, encoder, rows)

            for games, scores in batches:
                write(self.games, games)
                write(self.scores, scores)
                raw.commit()
            write(self.day_counts, [self.day_counts.encode(r) for r in self.boards.day_rows()])
            bests = [self.bests.encode(row) for row in self.boards.best_rows()]
            for first in range(0, len(bests), BATCH):
                write(self.bests, bests[first : first + BATCH])
            raw.commit()
        finally:
            raw.close()
        totals = leaderboard_totals
        with self.engine.begin() as connection:
            for score, wins in enumerate(self.boards.wins):
                last = self.boards.last[score]
                connection.execute(
                    update(totals)
                    .where(totals.c.score == score)
                    .values(wins=wins, wins_unassisted=wins, last_finished_at=last)
                )
        self.analyze()
        return time.perf_counter() - start

    def analyze(self) -> None:
        """What a live database has from autovacuum or a periodic ANALYZE."""
        if self.is_postgres:
            autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            with autocommit.connect() as connection:
                connection.execute(text("VACUUM ANALYZE games"))
                connection.execute(text("VACUUM ANALYZE scores"))
                connection.execute(text("VACUUM ANALYZE leaderboard_bests"))
                connection.execute(text("VACUUM ANALYZE leaderboard_days"))
        else:
            with self.engine.begin() as connection:
                connection.execute(text("ANALYZE"))


def _executemany(driver: Any, encoder: _Encoder, rows: list[tuple[object, ...]]) -> None:
    columns = ", ".join(f'"{name}"' for name in encoder.names)
    marks = ", ".join("?" for _ in encoder.names)
    cursor = driver.cursor()  # sqlite3 opens the transaction; the caller commits
    cursor.executemany(f'INSERT INTO "{encoder.table.name}" ({columns}) VALUES ({marks})', rows)
    cursor.close()


def _copy(driver: Any, encoder: _Encoder, rows: list[tuple[object, ...]]) -> None:
    statement = psycopg_sql.SQL("COPY {} ({}) FROM STDIN").format(
        psycopg_sql.Identifier(encoder.table.name),
        psycopg_sql.SQL(", ").join(psycopg_sql.Identifier(name) for name in encoder.names),
    )
    with driver.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            copy.write_row(row)
