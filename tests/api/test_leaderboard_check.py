"""`foursquare check-leaderboard`: every stored counter, ordinal and player's best against a
recount of the won games. Ranks are sums of those counters, so a row deleted or edited by hand
would misrank every later game without any error; the check is how an operator finds out."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from api import cli
from api.core.database import Database
from api.leaderboards import check as leaderboard
from api.leaderboards import recount
from api.leaderboards import store as leaderboards_store
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


def corrupt(database: Database, games: dict[str, str], statement: str) -> None:
    """Run an edit by hand that names games by their uuid; it must change some row."""
    if database.is_sqlite:  # SQLite stores a uuid as 32 hex digits
        for game_id in games.values():
            statement = statement.replace(game_id, game_id.replace("-", ""))
    with database.transaction() as session:
        assert session.execute(text(statement)).rowcount >= 1  # type: ignore[attr-defined]


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_each_edit_by_hand_is_reported_and_nothing_is_changed(
    database: Database, database_url: str, corruption: str, capsys: pytest.CaptureFixture[str]
) -> None:
    games = won_games(database)
    statement, table = CORRUPTIONS[corruption]
    corrupt(database, games, statement(games))
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
    # The first 20: the later 20s' ordinals count it.
    corrupt(database, games, f"DELETE FROM scores WHERE game_id = '{games['ann-0']}'")
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


LEADERBOARD_TABLES = ("leaderboard_totals", "leaderboard_days", "scores", "leaderboard_bests")


def rows(database: Database) -> dict[str, list[tuple[str, ...]]]:
    """Every row of the tables the boards are read from, as text, in a fixed order."""
    with database.reading() as connection:
        return {
            table: sorted(
                tuple(str(value) for value in row)
                for row in connection.execute(text(f"SELECT * FROM {table}"))
            )
            for table in LEADERBOARD_TABLES
        }


def revision(database: Database) -> int:
    with database.reading() as connection:
        return leaderboards_store.leaderboard_revision(connection)


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_repair_puts_back_exactly_what_the_wins_had_recorded(
    database: Database, corruption: str
) -> None:
    games = won_games(database)
    recorded = rows(database)
    corrupt(database, games, CORRUPTIONS[corruption][0](games))
    drift = leaderboard.counters_drift(database)
    before = revision(database)
    assert leaderboard.repair_counters(database) == drift
    assert leaderboard.counters_drift(database) == []
    assert rows(database) == recorded
    assert revision(database) > before  # no process keeps serving a page cached before


def test_a_repair_after_a_won_game_was_deleted_renumbers_the_games_after_it(
    database: Database, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    games = won_games(database)
    corrupt(database, games, f"DELETE FROM scores WHERE game_id = '{games['ann-0']}'")
    assert cli.main(["check-leaderboard", "--database-url", database_url, "--repair"]) == 0
    out = capsys.readouterr().out
    assert "leaderboard figures differed from a recount of the won games: all are rebuilt" in out
    assert cli.main(["check-leaderboard", "--database-url", database_url]) == 0
    assert "agree" in capsys.readouterr().out
    with database.reading() as connection:
        wins = connection.execute(
            text("SELECT wins, wins_unassisted FROM leaderboard_totals WHERE score = 20")
        ).one()
        assert tuple(wins) == (2, 2)  # bob-1 and ann-5
        ordinals = connection.execute(
            text("SELECT ordinal, ordinal_unassisted FROM scores WHERE score = 20 ORDER BY ordinal")
        ).all()
        assert [tuple(row) for row in ordinals] == [(1, 1), (2, 2)]


def test_a_repair_with_nothing_to_repair_writes_nothing(
    database: Database, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    won_games(database)
    recorded, before = rows(database), revision(database)
    assert leaderboard.repair_counters(database) == []
    assert cli.main(["check-leaderboard", "--database-url", database_url, "--repair"]) == 0
    assert "agree" in capsys.readouterr().out
    assert (rows(database), revision(database)) == (recorded, before)


def test_wins_recorded_while_repairs_run_are_all_counted(database: Database) -> None:
    # Three writers win games of their own score while another thread damages a counter
    # nobody writes and repairs it, again and again. Each repair must find that damage and
    # nothing else, and leave nothing for the next check to find: a rebuild that let wins
    # in while it recounts would lose the counts of some of them.
    errors: list[str] = []
    writing = threading.Event()
    writing.set()
    repairs = 0

    def writer(score: int) -> None:
        try:
            for number in range(WINS_PER_WRITER):
                at = T0 + timedelta(seconds=number)
                record_win(database, score, at, f"p{score}", assisted=number % 3 == 0)
        except Exception as exc:  # reported below
            errors.append(f"writer {score}: {exc!r}")

    def repairer() -> None:
        nonlocal repairs
        try:
            while writing.is_set():
                with database.transaction() as session:
                    session.execute(
                        text("UPDATE leaderboard_totals SET wins = wins + 7 WHERE score = 5")
                    )
                drift = leaderboard.repair_counters(database)
                if [(row.table, row.key) for row in drift] != [("leaderboard_totals", "score 5")]:
                    errors.append(f"repair {repairs} found {drift}")
                left = leaderboard.counters_drift(database)
                if left:
                    errors.append(f"repair {repairs} left {left}")
                repairs += 1
                # SQLite has one write connection: let a waiting writer take it.
                time.sleep(0.01)
        except Exception as exc:  # reported below
            errors.append(f"repairer: {exc!r}")

    writers = [threading.Thread(target=writer, args=(score,)) for score in (19, 20, 21)]
    repairing = threading.Thread(target=repairer)
    repairing.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    writing.clear()
    repairing.join()
    assert errors == []
    assert repairs > 0
    assert leaderboard.counters_drift(database) == []
    with database.reading() as connection:
        totals = connection.execute(
            text("SELECT score, wins FROM leaderboard_totals WHERE wins > 0 ORDER BY score")
        ).all()
    assert [tuple(row) for row in totals] == [(s, WINS_PER_WRITER) for s in (19, 20, 21)]


WINS_PER_WRITER = 25


# On SQLite every check, repair or not, waits for the write transaction.
@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_a_repair_with_nothing_to_repair_does_not_hold_back_a_win_under_way(
    database: Database,
) -> None:
    games = won_games(database)
    done = threading.Event()
    found: list[list[recount.Drift]] = []

    def repair() -> None:
        found.append(leaderboard.repair_counters(database))
        done.set()

    with database.transaction() as session:  # a win under way: its score's count locked
        leaderboards_store.last_win_of_score(session, 20)
        repairing = threading.Thread(target=repair)
        repairing.start()
        # Generous: a repair that locked the tables would wait for this transaction forever.
        assert done.wait(timeout=60), "the repair waited for the win's transaction"
    repairing.join()
    assert found == [[]]
    corrupt(database, games, "UPDATE leaderboard_totals SET wins = wins + 1 WHERE score = 21")
    assert len(leaderboard.repair_counters(database)) == 1
