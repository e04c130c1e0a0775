"""`foursquare check-leaderboard`: every stored counter, ordinal and player's best against a
recount of the won games. Ranks are sums of those counters, so a row deleted or edited by hand
would misrank every later game without any error; the check is how an operator finds out."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from api import cli
from api.games import leaderboard
from api.store.database import Database
from tests.api.test_leaderboard import T0, record_win


def won_games(database: Database) -> dict[str, str]:
    """Wins of three players over two weeks, with and without hints, ties of score
    included: every kind of row the boards keep."""
    games = {}
    plan = [
        ("ann", 20, 0, False),
        ("bob", 20, 1, False),
        ("ann", 22, 2, True),
        ("cid", 18, 3, False),
        ("bob", 22, 30, False),
        ("ann", 20, 200, False),  # 8 days later: another week
        ("cid", 21, 201, True),
        ("bob", 18, 202, False),
    ]
    for number, (player, score, hours, assisted) in enumerate(plan):
        at = T0 + timedelta(hours=hours, seconds=number)
        games[f"{player}-{number}"] = record_win(database, score, at, player, assisted)
    return games


def test_wins_recorded_by_the_service_agree_with_their_recount(
    database: Database, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    won_games(database)
    assert leaderboard.counters_drift(database) == []
    assert cli.main(["check-leaderboard", "--database-url", database_url]) == 0
    assert "agree" in capsys.readouterr().out


def test_an_empty_leaderboard_agrees(database: Database) -> None:
    assert leaderboard.counters_drift(database) == []


Corruption = Callable[[dict[str, str]], str]

# Each edit by hand, and the table whose rows the check must name.
CORRUPTIONS: dict[str, tuple[Corruption, str]] = {
    "a total counted twice": (
        lambda g: "UPDATE leaderboard_totals SET wins = wins + 1 WHERE score = 20",
        "leaderboard_totals",
    ),
    "a total's last finish moved back": (
        lambda g: "UPDATE leaderboard_totals SET last_finished_at = NULL WHERE score = 22",
        "leaderboard_totals",
    ),
    "a day's count of games without hints": (
        lambda g: "UPDATE leaderboard_days SET wins_unassisted = 0 WHERE score = 20",
        "leaderboard_days",
    ),
    "an ordinal": (
        lambda g: f"UPDATE scores SET day_ordinal = 5 WHERE game_id = '{g['bob-1']}'",
        "scores",
    ),
    "an assisted game given an unassisted ordinal": (
        lambda g: f"UPDATE scores SET ordinal_unassisted = 1 WHERE game_id = '{g['ann-2']}'",
        "scores",
    ),
    "a best pointing at a worse game": (
        lambda g: (
            f"UPDATE leaderboard_bests SET game_id = '{g['bob-1']}' "
            f"WHERE game_id = '{g['bob-4']}' AND board = 'all'"
        ),
        "leaderboard_bests",
    ),
    "a best deleted": (
        lambda g: f"DELETE FROM leaderboard_bests WHERE game_id = '{g['cid-3']}'",
        "leaderboard_bests",
    ),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_each_edit_by_hand_is_reported_and_nothing_is_changed(
    database: Database, database_url: str, corruption: str, capsys: pytest.CaptureFixture[str]
) -> None:
    games = won_games(database)
    statement, table = CORRUPTIONS[corruption]
    uuid_text = statement(games)
    if database.is_sqlite:  # SQLite stores a uuid as 32 hex digits
        for game_id in games.values():
            uuid_text = uuid_text.replace(game_id, game_id.replace("-", ""))
    with database.transaction() as session:
        assert session.execute(text(uuid_text)).rowcount >= 1  # type: ignore[attr-defined]
    drift = leaderboard.counters_drift(database)
    assert drift and {row.table for row in drift} == {table}, drift
    assert leaderboard.counters_drift(database) == drift  # the check changed nothing
    assert cli.main(["check-leaderboard", "--database-url", database_url]) == 1
    out = capsys.readouterr().out
    assert f"{len(drift)} leaderboard figures differ" in out and f"{table}: " in out


def test_a_won_game_deleted_by_hand_shows_in_every_table_it_was_counted_in(
    database: Database,
) -> None:
    games = won_games(database)
    game_id = games["ann-0"]  # the first 20: the later 20s' ordinals count it
    if database.is_sqlite:
        game_id = game_id.replace("-", "")
    with database.transaction() as session:
        session.execute(text(f"DELETE FROM scores WHERE game_id = '{game_id}'"))
    tables = {row.table for row in leaderboard.counters_drift(database)}
    assert tables == {"leaderboard_totals", "leaderboard_days", "scores", "leaderboard_bests"}


def test_a_database_that_cannot_be_read_exits_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unmigrated = f"sqlite:///{tmp_path / 'empty.db'}"
    missing = f"sqlite:///{tmp_path / 'no' / 'such' / 'folder.db'}"
    for url in (unmigrated, missing):
        assert cli.main(["check-leaderboard", "--database-url", url]) == 2
        out = capsys.readouterr().out
        assert out.startswith("could not check the leaderboard: OperationalError")
        assert out.count("\n") == 1
