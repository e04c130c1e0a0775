"""The cursors of listings ordered by a time and an id (the games in progress, the open
races): each opens only its own kind, signed by this secret, with a time that has its zone."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from api.core.cursors import open_time_cursor, seal_cursor, seal_time_cursor

SECRET = b"s" * 32
AT = datetime(2026, 12, 6, 1, 2, 3, 456789, tzinfo=UTC)
ID = uuid.UUID(int=7)


def test_a_time_cursor_opens_to_its_time_and_id() -> None:
    assert open_time_cursor(
        SECRET, seal_time_cursor(SECRET, "open_races", AT, ID), "open_races"
    ) == (
        AT,
        ID,
    )


def test_any_other_cursor_opens_to_nothing() -> None:
    mine = seal_time_cursor(SECRET, "open_races", AT, ID)
    assert open_time_cursor(SECRET, mine, "in_progress") is None  # another listing's
    assert open_time_cursor(b"t" * 32, mine, "open_races") is None  # another secret's
    assert open_time_cursor(SECRET, mine[:-2], "open_races") is None  # tampered
    naive = seal_cursor(SECRET, ["open_races", AT.replace(tzinfo=None).isoformat(), ID.hex])
    for other in (
        naive,
        seal_cursor(SECRET, ["open_races", AT.isoformat()]),
        seal_cursor(SECRET, ["open_races", "yesterday", ID.hex]),
        seal_cursor(SECRET, ["open_races", AT.isoformat(), "not-hex"]),
        seal_cursor(SECRET, ["open_races", 5, ID.hex]),
        "garbage",
    ):
        assert open_time_cursor(SECRET, other, "open_races") is None, other
