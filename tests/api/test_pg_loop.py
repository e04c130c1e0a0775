"""The event loop's PostgreSQL connections (api.pg_loop), against the real server.

Their hand-off (first come first served, a 503 after the timeout, a place freed by a cancelled
or failed read), their replacement when broken (a read retried once on a new connection), and
values identical to what a psycopg cursor returns.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

import psycopg
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.db import psycopg_conninfo
from api.pg_loop import LoopPool, LoopPoolTimeout, statement
from api.reads import _pyformat
from api.settings import Settings
from tests.conftest import MakeGame
from tests.support import databases

pytestmark = pytest.mark.postgres

T = TypeVar("T")
PID = statement("SELECT pg_backend_pid()")
SLEEP = statement("SELECT pg_sleep(CAST(:seconds AS float))")


@pytest.fixture
def backend(_postgres_status: str | None) -> str:
    if _postgres_status is not None:
        if databases.REQUIRE_POSTGRES:
            pytest.fail(f"FOURSQUARE_TEST_REQUIRE_POSTGRES is set but {_postgres_status}")
        pytest.skip(_postgres_status)
    return "postgresql"


@pytest.fixture
def conninfo(database_url: str) -> str:
    return psycopg_conninfo(database_url)


def with_pool(
    conninfo: str, work: Callable[[LoopPool], Awaitable[T]], *, size: int = 2, timeout: float = 5
) -> T:
    async def run() -> T:
        pool = LoopPool(conninfo, size=size, timeout=timeout)
        await pool.open()
        try:
            return await work(pool)
        finally:
            await pool.close()

    return asyncio.run(run())


async def pid(pool: LoopPool) -> int:
    rows = await pool.fetch(PID, {})
    return int(rows[0][0])


def terminate(conninfo: str, backend_pid: int) -> None:
    """End a backend from outside the pool, as an administrator or a server restart would."""
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (backend_pid,))
        for _ in range(100):  # the backend is gone once it no longer shows in pg_stat_activity
            row = admin.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = %s", (backend_pid,)
            ).fetchone()
            if row is not None and row[0] == 0:
                return
            time.sleep(0.02)
    raise AssertionError(f"backend {backend_pid} did not end")


def test_values_are_the_ones_a_psycopg_cursor_returns(conninfo: str) -> None:
    sql = (
        "SELECT CAST(:id AS uuid), CAST(:at AS timestamptz), :flag = true, CAST(:n AS int),"
        " CAST(:n AS bigint) * 1000000000, CAST(:n AS smallint), '[{\"a\": [1, 2]}]'::json,"
        " '{\"b\": null}'::jsonb, :greeting || 'é', NULL::text, CAST(NULL AS timestamptz),"
        " numrange(1, 2)"
    )
    params = {
        "id": uuid.uuid4(),
        "at": datetime(2026, 11, 30, 1, 2, 3, 456789, tzinfo=UTC),
        "flag": False,
        "n": 7,
        "greeting": "naïve ",
    }

    async def both(pool: LoopPool) -> tuple[Any, Any]:
        ours = await pool.fetch(statement(sql), params)
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            cursor = await conn.execute(_pyformat(sql), params)
            theirs = await cursor.fetchall()
        return ours, theirs

    ours, theirs = with_pool(conninfo, both)
    assert ours == theirs
    assert ours[0][:4] == (params["id"], params["at"], False, 7)
    assert ours[0][6:10] == ([{"a": [1, 2]}], {"b": None}, "naïve é", None)


def test_a_broken_idle_connection_is_replaced_and_the_read_made_again(conninfo: str) -> None:
    async def work(pool: LoopPool) -> tuple[int, int, int]:
        first = await pid(pool)
        terminate(conninfo, first)
        second = await pid(pool)  # no error: read again on a new connection
        return first, second, await pid(pool)

    first, second, third = with_pool(conninfo, work)
    assert second != first
    assert third == second  # the new connection stays


def test_a_connection_that_breaks_under_every_attempt_is_an_error_after_one_retry(
    conninfo: str, caplog: pytest.LogCaptureFixture
) -> None:
    suicide = statement("SELECT pg_terminate_backend(pg_backend_pid())")

    async def work(pool: LoopPool) -> list[int]:
        retries = []
        for fresh in (True, False):  # on a new connection (no retry), on a used one (one)
            if not fresh:
                await pid(pool)  # leaves a used connection idle, for the next read
            caplog.clear()
            with pytest.raises(psycopg.OperationalError):
                await pool.fetch(suicide, {})
            retries.append(sum("reading again" in r.message for r in caplog.records))
        await pid(pool)  # and the pool still serves
        return retries

    assert with_pool(conninfo, work, size=1) == [0, 1]


def test_an_error_in_a_statement_keeps_the_connection(conninfo: str) -> None:
    async def work(pool: LoopPool) -> tuple[int, int]:
        before = await pid(pool)
        with pytest.raises(psycopg.errors.DivisionByZero):
            await pool.fetch(statement("SELECT 1 / CAST(:zero AS int)"), {"zero": 0})
        return before, await pid(pool)

    before, after = with_pool(conninfo, work, size=1)
    assert before == after


def test_a_statement_whose_result_type_a_migration_changed_is_prepared_again(
    conninfo: str,
) -> None:
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute("CREATE TABLE migrating (id int PRIMARY KEY, label varchar(10))")
        admin.execute("INSERT INTO migrating VALUES (1, 'one')")
    read = statement("SELECT label FROM migrating WHERE id = :id")

    async def work(pool: LoopPool) -> list[Any]:
        before = await pool.fetch(read, {"id": 1})
        with psycopg.connect(conninfo, autocommit=True) as admin:
            admin.execute("ALTER TABLE migrating ALTER COLUMN label TYPE int USING 7")
        return [before, await pool.fetch(read, {"id": 1}), await pool.fetch(read, {"id": 1})]

    assert with_pool(conninfo, work, size=1) == [[("one",)], [(7,)], [(7,)]]


def test_readers_wait_their_turn_first_come_first_served(conninfo: str) -> None:
    sleep = statement("SELECT pg_sleep(CAST(:seconds AS float)), CAST(:name AS text)")

    async def work(pool: LoopPool) -> list[str]:
        done: list[str] = []

        async def read(name: str) -> None:
            rows = await pool.fetch(sleep, {"seconds": 0.1, "name": name})
            done.append(rows[0][1])

        tasks = []
        for name in "abcde":
            tasks.append(asyncio.create_task(read(name)))
            await asyncio.sleep(0.01)  # so that they queue in this order
        await asyncio.gather(*tasks)
        return done

    assert with_pool(conninfo, work, size=1) == list("abcde")


def test_a_reader_that_waits_too_long_gets_a_timeout_and_the_pool_goes_on(conninfo: str) -> None:
    async def work(pool: LoopPool) -> float:
        holder = asyncio.create_task(pool.fetch(SLEEP, {"seconds": 1}))
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        with pytest.raises(LoopPoolTimeout):
            await pool.fetch(PID, {})
        waited = time.perf_counter() - started
        await holder
        await pid(pool)
        return waited

    waited = with_pool(conninfo, work, size=1, timeout=0.3)
    assert 0.25 <= waited < 0.9
    assert issubclass(LoopPoolTimeout, psycopg.OperationalError)  # answered 503, as any


def test_a_cancelled_read_frees_its_place(conninfo: str) -> None:
    async def work(pool: LoopPool) -> None:
        for _ in range(3):  # more than the pool's size: a leaked place would time out
            task = asyncio.create_task(pool.fetch(SLEEP, {"seconds": 5}))
            await asyncio.sleep(0.1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            await pid(pool)

    with_pool(conninfo, work, size=1, timeout=1)


def test_a_server_that_does_not_answer_is_an_error_each_time_not_a_leak(conninfo: str) -> None:
    unreachable = "host=127.0.0.1 port=1 user=postgres connect_timeout=2"

    async def work(pool: LoopPool) -> list[str]:
        kinds = []
        for _ in range(3):  # a place lost by a failed connection would make this a timeout
            try:
                await pid(pool)
            except psycopg.OperationalError as exc:
                kinds.append(type(exc).__name__)
        return kinds

    assert with_pool(unreachable, work, size=1, timeout=1) == ["OperationalError"] * 3


def test_closing_waits_for_no_one_and_closes_what_comes_back(conninfo: str) -> None:
    async def work() -> None:
        pool = LoopPool(conninfo, size=1, timeout=1)
        await pool.open()
        reading = asyncio.create_task(pool.fetch(SLEEP, {"seconds": 0.2}))
        await asyncio.sleep(0.05)
        await pool.close()
        assert await reading == [("",)]  # the read in progress ends normally
        with pytest.raises(psycopg.OperationalError, match="closed"):
            await pid(pool)

    asyncio.run(work())


def test_public_reads_survive_their_connections_being_terminated(
    client: TestClient, make_game: MakeGame, conninfo: str
) -> None:
    game = make_game()
    before = client.get(f"/games/{game.id}")
    assert before.status_code == 200
    with psycopg.connect(conninfo, autocommit=True) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    again = client.get(f"/games/{game.id}")
    assert again.status_code == 200, again.text
    assert again.json() == before.json()
    assert client.get("/leaderboard").status_code == 200


def test_a_read_that_finds_no_connection_in_time_is_503_with_retry_after(
    database_url: str,
) -> None:
    settings = Settings(
        database_url=database_url, migrate_on_start=False, db_read_pool_size=1, db_pool_timeout=0.2
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        created = client.post("/games", json={"player": "waiting"})
        game = created.json()["id"]
        pool: LoopPool = client.app.state.database.reads._pool  # type: ignore[attr-defined]
        assert client.portal is not None
        held = client.portal.call(pool._acquire)  # the only connection, taken on the app's loop
        busy = client.get(f"/games/{game}")
        assert busy.status_code == 503, busy.text
        assert busy.json()["code"] == "database_busy"
        assert int(busy.headers["retry-after"]) >= 1
        client.portal.call(pool._release, held)
        assert client.get(f"/games/{game}").status_code == 200
