"""Bulk-loading finished (won) games straight into a migrated database.

Rows are written in batches of 10,000 by the driver itself (SQLite: ``executemany`` of one
``INSERT``; PostgreSQL: ``COPY ... FROM STDIN``), with the column list of the service's own
models (:class:`api.models.GameRow`, :class:`api.models.ScoreRow`) and every value encoded by
the bind processor SQLAlchemy would use for its column, so what is stored is exactly what the
service would store. Every ``NOT NULL`` column of ``games`` or ``scores`` without a server
default that this module does not know (a later migration may add one) gets plain values of
its type (random hex for strings), and is named on stderr; unknown columns with a server
default are left to the database (``assisted``, for one, stays false: no loaded game had a
hint).

Game states are real: a greedy player wins a few seeded deals with the engine, and every
loaded game reuses the state of the won game whose score is closest to its own. Scores are
0..24, lower ones more frequent; ``finished_at`` is distinct for every row.
"""

from __future__ import annotations

import json
import random
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from psycopg import sql as psycopg_sql
from sqlalchemy import Column, Table, create_engine, func, select, text
from sqlalchemy.engine import Dialect

from api.store.models import GameRow, ScoreRow
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
SCORE_COLUMNS = frozenset({"game_id", "player", "score", "sort_score", "finished_at"})


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


class BulkLoader:
    """Appends won games (a ``games`` row and a ``scores`` row each) to one database.

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
        games: Table = GameRow.__table__  # type: ignore[assignment]
        scores: Table = ScoreRow.__table__  # type: ignore[assignment]
        self.game_extra = _unknown_required(games, GAME_COLUMNS)
        self.score_extra = _unknown_required(scores, SCORE_COLUMNS)
        self.games = _Encoder(games, GAME_COLUMNS, self.game_extra, self.engine.dialect)
        self.scores = _Encoder(scores, SCORE_COLUMNS, self.score_extra, self.engine.dialect)

    def close(self) -> None:
        self.engine.dispose()

    def count(self) -> int:
        """How many scores (won games) the database holds."""
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(ScoreRow)) or 0)

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
        """Append ``count`` won games, then refresh the planner statistics; return seconds."""
        start = time.perf_counter()
        batches = self._batches(self.count(), count)
        raw = self.engine.raw_connection()
        try:
            driver: Any = raw.driver_connection
            for games, scores in batches:
                for encoder, rows in ((self.games, games), (self.scores, scores)):
                    if self.is_postgres:
                        _copy(driver, encoder, rows)
                    else:
                        _executemany(driver, encoder, rows)
                raw.commit()
        finally:
            raw.close()
        self.analyze()
        return time.perf_counter() - start

    def analyze(self) -> None:
        """What a live database has from autovacuum or a periodic ANALYZE."""
        if self.is_postgres:
            autocommit = self.engine.execution_options(isolation_level="AUTOCOMMIT")
            with autocommit.connect() as connection:
                connection.execute(text("VACUUM ANALYZE games"))
                connection.execute(text("VACUUM ANALYZE scores"))
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
