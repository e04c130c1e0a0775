"""What the database sees of a request: the SQL statements an app's engines send, and the
transactions that commit a write, counted through SQLAlchemy's engine events.

Tests hold the work a request does as such counts (so many statements, one write transaction,
the ``games`` table read once), which any refactoring that keeps the work keeps too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine

from api.core.database import Database

DATA_STATEMENTS = ("SELECT", "INSERT", "UPDATE", "DELETE", "WITH")
WRITES = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?(\w+)", re.IGNORECASE)


@dataclass
class Statements:
    """The data statements (``SELECT``, ``INSERT``, ``UPDATE``, ``DELETE``, ``WITH``) sent while
    counting, as sent, and how many transactions committed at least one write."""

    texts: list[str] = field(default_factory=list)
    write_transactions: int = 0

    @property
    def kinds(self) -> list[str]:
        """Each statement's first word: ``["SELECT", "UPDATE", "INSERT"]``."""
        return [text.split()[0].upper() for text in self.texts]

    def reads_of(self, table: str) -> int:
        """How many ``SELECT`` statements read ``table`` (name it in a ``FROM`` or a
        ``JOIN``)."""
        named = re.compile(rf"\b(FROM|JOIN)\s+\"?{table}\"?(\s|$|,|\))", re.IGNORECASE)
        return sum(
            1 for text in self.texts if text.upper().startswith("SELECT") and named.search(text)
        )

    def writes_of(self, table: str) -> int:
        """How many statements insert into, update or delete from ``table`` (a ``WITH`` that
        updates it counts once for each of its parts that does)."""
        return sum(
            1
            for text in self.texts
            if not text.upper().startswith("SELECT")  # SELECT ... FOR UPDATE writes nothing
            for _, written in WRITES.findall(text)
            if written.lower() == table.lower()
        )

    def clear(self) -> None:
        self.texts.clear()
        self.write_transactions = 0


def engines_of(database: Database) -> list[Engine]:
    """The engines a request may use, each pool once. On PostgreSQL the read engine is the
    write engine with other options (one pool, one set of event listeners); the requests'
    reads and writes go through the asyncio engines, whose statements their synchronous facades
    see."""
    candidates = [database.read_engine, database.write_engine]
    for loop_engine in (database.async_read_engine, database.async_engine):
        if loop_engine is not None:
            candidates.append(loop_engine.sync_engine)
    return list({engine.pool: engine for engine in candidates}.values())


@contextmanager
def counting(database: Database) -> Iterator[Statements]:
    """Count what ``database``'s engines send until the block ends."""
    seen = Statements()
    writing: set[Connection] = set()  # connections whose open transaction has written

    def sent(conn: Connection, _cursor: Any, statement: str, *_args: Any) -> None:
        text = statement.strip()
        if text.upper().startswith(DATA_STATEMENTS):
            seen.texts.append(text)
            if not text.upper().startswith("SELECT") and WRITES.search(text):
                writing.add(conn)

    def committed(conn: Connection) -> None:
        if conn in writing:
            writing.discard(conn)
            seen.write_transactions += 1

    def rolled_back(conn: Connection) -> None:
        writing.discard(conn)

    listeners: list[tuple[str, Callable[..., None]]] = [
        ("before_cursor_execute", sent),
        ("commit", committed),
        ("rollback", rolled_back),
    ]
    engines = engines_of(database)
    for engine in engines:
        for name, listener in listeners:
            event.listen(engine, name, listener)
    try:
        yield seen
    finally:
        for engine in engines:
            for name, listener in listeners:
                event.remove(engine, name, listener)
