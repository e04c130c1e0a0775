"""Abandoned games: ``foursquare expire`` ends games in progress left untouched too long."""

from __future__ import annotations

import json
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text, update

from api import cli
from api.app import create_app
from api.core.database import Database
from api.core.errors import ApiError
from api.core.secrets import deck_commitment
from api.games import expiry, snapshot
from api.games import store as games_store
from api.games.errors import VersionConflict
from api.games.placing import plan_placement, store_placement
from api.games.tables import games
from api.leaderboards.tables import scores as scores_table
from api.settings import Settings
from testkit.games import place_in
from tests.conftest import CreatedGame, MakeGame

HOUR = timedelta(hours=1)


def age(database: Database, game: CreatedGame, by: timedelta) -> None:
    """Make a game look untouched for ``by``: as if its last change was that long ago."""
    with database.transaction() as session:
        session.execute(
            update(games)
            .where(games.c.id == uuid.UUID(game.id))
            .values(updated_at=datetime.now(UTC) - by)
        )


def expire_by_cli(database_url: str, hours: float, capsys: pytest.CaptureFixture[str]) -> str:
    assert cli.main(["expire", "--hours", str(hours), "--database-url", database_url]) == 0
    return capsys.readouterr().out


def place(client: TestClient, game: CreatedGame, row: int = 0, col: int = 0) -> Any:
    return client.post(
        f"/games/{game.id}/placements", json={"row": row, "col": col}, headers=game.auth
    )


def test_expire_ends_old_games_only_reveals_them_and_refuses_placements(
    client: TestClient,
    database: Database,
    make_game: MakeGame,
    database_url: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    old, recent, touched = make_game(), make_game(), make_game()
    age(database, old, 3 * HOUR)
    age(database, recent, HOUR / 2)
    age(database, touched, 3 * HOUR)
    assert place(client, touched).status_code == 201  # played just now: no longer untouched
    before = client.get(f"/games/{old.id}").json()
    assert before["reveal"] is None

    assert "ended 1 games" in expire_by_cli(database_url, 2, capsys)

    view = client.get(f"/games/{old.id}").json()
    assert (view["status"], view["end_reason"], view["score"]) == ("lost", "abandoned", None)
    assert view["current_card"] is None and view["legal_placements"] == []
    assert view["version"] == before["version"] + 1
    assert view["finished_at"] is not None
    # Revealed like any finished game: the deck the game committed to when it was dealt.
    reveal = view["reveal"]
    assert len(reveal["deck"]) == 40
    assert reveal["deck"][0] == before["current_card"]["code"]
    assert deck_commitment(reveal["deck"], reveal["salt"]) == before["deck_commitment"]
    # The stored snapshot was taken anew, in the current format, and shows the same.
    with database.reading() as connection:
        stored = games_store.get_view(connection, uuid.UUID(old.id))
    assert stored is not None and stored.snapshot_format == snapshot.FORMAT
    taken = snapshot.loads(stored.snapshot or "")
    assert (taken.status, taken.end_reason, taken.current_card) == ("lost", "abandoned", None)
    assert taken.reveal is not None and taken.reveal.deck == reveal["deck"]
    assert len(taken.piles) == len(view["piles"])

    for game in (recent, touched):
        assert client.get(f"/games/{game.id}").json()["status"] == "in_progress"

    refused = place(client, old)
    assert (refused.status_code, refused.json()["code"]) == (409, "game_over")
    hint = client.get(f"/games/{old.id}/hint", headers=old.auth)
    assert (hint.status_code, hint.json()["code"]) == (409, "game_over")
    assert client.get(f"/games/{old.id}").json() == view
    with database.reading() as connection:
        scores = connection.execute(select(func.count()).select_from(scores_table)).scalar()
    assert scores == 0
    assert client.get("/leaderboard").json()["entries"] == []

    # Idempotent: a second run finds nothing more to end.
    assert "ended 0 games" in expire_by_cli(database_url, 2, capsys)
    assert client.get(f"/games/{old.id}").json() == view


def test_an_expiry_decided_before_a_placement_lands_ends_nothing(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    age(database, game, 3 * HOUR)
    with database.reading() as connection:
        rows = games_store.games_untouched_since(connection, datetime.now(UTC) - HOUR, 10)
    plans = expiry.plan_expiry(rows, datetime.now(UTC))
    assert [plan.row.id for plan in plans] == [uuid.UUID(game.id)]

    assert place(client, game).status_code == 201  # lands between the read and the write
    with database.transaction() as session:
        assert expiry.store_expiry(session, plans) == 0

    view = client.get(f"/games/{game.id}").json()
    assert (view["status"], view["placements_count"]) == ("in_progress", 1)


def test_a_placement_decided_before_an_expiry_gets_a_version_conflict(
    client: TestClient, database: Database, make_game: MakeGame
) -> None:
    game = make_game()
    age(database, game, 3 * HOUR)
    with database.reading() as connection:
        row = games_store.get_game(connection, uuid.UUID(game.id))
    assert row is not None
    plan = plan_placement(row, game.token, (0, 0))

    assert expiry.expire_untouched(database, HOUR) == 1  # lands between the read and the write
    with pytest.raises(VersionConflict), database.transaction() as session:
        store_placement(session, plan)

    view = client.get(f"/games/{game.id}").json()
    assert (view["status"], view["end_reason"], view["placements_count"]) == (
        "lost",
        "abandoned",
        0,
    )
    assert client.get(f"/games/{game.id}/placements").json()["placements"] == []


def test_placements_racing_expiries_either_land_or_are_refused_never_both(
    database: Database, make_game: MakeGame
) -> None:
    """Threads play games while others expire every game untouched for no time at all: each
    placement either lands (and the game, if abandoned later, holds it) or is refused."""
    games = [make_game() for _ in range(4)]
    landed = {game.id: 0 for game in games}
    errors: list[BaseException] = []
    refused: list[str] = []

    def play(game: CreatedGame) -> None:
        try:
            for _ in range(40):
                with database.reading() as connection:
                    stored = games_store.get_view(connection, uuid.UUID(game.id))
                assert stored is not None
                taken = snapshot.loads(stored.snapshot or "")
                if taken.status != "in_progress":
                    return
                try:
                    with database.transaction() as session:
                        place_in(session, game.id, game.token, taken.legal_placements[0])
                except ApiError as exc:
                    refused.append(exc.code)
                else:
                    landed[game.id] += 1
        except BaseException as exc:
            errors.append(exc)

    def expire() -> None:
        try:
            for _ in range(15):
                expiry.expire_untouched(database, timedelta(0))
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=play, args=(game,)) for game in games]
    threads += [threading.Thread(target=expire) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors
    assert set(refused) <= {"version_conflict", "game_over"}
    assert expiry.expire_untouched(database, timedelta(0)) == 0  # every game is over now

    for game in games:
        with database.reading() as connection:
            row = games_store.get_game(connection, uuid.UUID(game.id))
            found = games_store.get_history(connection, uuid.UUID(game.id))
            stored = games_store.get_view(connection, uuid.UUID(game.id))
        assert row is not None and found is not None and stored is not None
        history, _, _ = found
        state = json.loads(row.state)
        assert len(history) == state["placed"] == landed[game.id]
        taken = snapshot.loads(stored.snapshot or "")
        assert taken.placements_count == landed[game.id]
        assert taken.status in {"won", "lost"}
        assert (taken.end_reason == "abandoned") == bool(state.get("abandoned"))


def test_the_server_can_expire_games_itself(database_url: str) -> None:
    settings = Settings(
        database_url=database_url,
        migrate_on_start=False,
        expire_every_minutes=0.01,  # every 0.6 s
        abandon_after_hours=1 / 3600,  # untouched for a second
    )
    with TestClient(create_app(settings)) as client:
        created = client.post("/games", json={"player": "idle"}).json()
        end = time.monotonic() + 60
        while client.get(f"/games/{created['id']}").json()["status"] == "in_progress":
            assert time.monotonic() < end, "the idle game was not expired within 60 s"
            time.sleep(0.1)
        assert client.get(f"/games/{created['id']}").json()["end_reason"] == "abandoned"


def test_the_openapi_document_lists_abandoned_as_an_end_reason(client: TestClient) -> None:
    game_out = client.get("/openapi.json").json()["components"]["schemas"]["GameOut"]
    (choices,) = [kind for kind in game_out["properties"]["end_reason"]["anyOf"] if "enum" in kind]
    assert choices["enum"] == ["too_many_face_down", "stock_exhausted", "abandoned"]


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_an_expiry_locks_its_games_in_one_order_whatever_order_it_read_them_in(
    database: Database, make_game: MakeGame
) -> None:
    # Another expiry holds the game with the lower id and, once this one waits for it, takes
    # the higher one. This one read the higher id first: had it locked that one first, each
    # would wait for the other and PostgreSQL would abort one of them (a deadlock).
    low, high = sorted(uuid.UUID(make_game().id) for _ in range(2))
    with database.reading() as connection:
        rows = [games_store.get_game(connection, game_id) for game_id in (high, low)]
    plans = expiry.plan_expiry([row for row in rows if row is not None], datetime.now(UTC))
    errors: list[BaseException] = []
    holding = threading.Event()

    def bump(session: Any, game_id: uuid.UUID) -> None:
        session.execute(
            update(games).where(games.c.id == game_id).values(version=games.c.version + 1)
        )

    def other_expiry() -> None:
        try:
            with database.transaction() as session:
                bump(session, low)
                holding.set()
                deadline = time.monotonic() + 60  # generous: only a broken test waits it out
                while not lock_awaited(session):
                    assert time.monotonic() < deadline, "the expiry never waited for the lock"
                    time.sleep(0.02)
                bump(session, high)
        except BaseException as exc:
            errors.append(exc)

    thread = threading.Thread(target=other_expiry)
    thread.start()
    assert holding.wait(timeout=60)
    try:
        with database.transaction() as session:
            ended = expiry.store_expiry(session, plans)
    except BaseException as exc:
        errors.append(exc)
    thread.join(timeout=120)
    assert errors == []
    assert ended == 0  # the other transaction changed both games first


def lock_awaited(session: Any) -> bool:
    """Whether a session of this database waits for a lock. Inside a transaction PostgreSQL
    answers pg_stat_activity from a snapshot taken at its first read (stats_fetch_consistency),
    so each poll clears it first: without that, the poll kept seeing the moment before the
    expiry waited, and the test waited out its whole deadline (60 s) on every run."""
    session.execute(text("SELECT pg_stat_clear_snapshot()"))
    waiting = text(
        "SELECT EXISTS (SELECT FROM pg_stat_activity"
        " WHERE wait_event_type = 'Lock' AND datname = current_database())"
    )
    return bool(session.execute(waiting).scalar_one())
