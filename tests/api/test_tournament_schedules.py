"""Schedules of tournaments (issue 53.4): an operator's routes and their refusals, the
settings' schedules, the announcer under a clock the test moves, and two real server
processes on one database announcing each tournament of a schedule once."""

from __future__ import annotations

import json
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from pydantic import ValidationError
from sqlalchemy import Uuid, bindparam, create_engine, text

from api.app import create_app
from api.settings import Settings
from api.tournaments import ScheduleIn, ScheduleService, schedule_settings_id
from testkit import clock as fake_clock
from testkit.server import running_server
from tests.support.fairplay import SUITE_OPERATOR

T = TypeVar("T")

SCHEDULE = {
    "name": "Friday night",
    "cron": "0 20 * * 5",
    "duration_minutes": 120,
    "deals": 5,
    "guests": True,
    "announce_ahead_minutes": 1440,
}
# A Friday, 2027-01-01 (the clock the announcer's tests set).
FRIDAY_8PM = datetime(2027, 1, 1, 20, 0, tzinfo=UTC)


def wait_for(read: Callable[[], T], done: Callable[[T], bool], seconds: float = 60) -> T:
    """``read()`` once ``done`` says so, or fail after a generous deadline."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"still {value!r} after {seconds} s"
        time.sleep(0.05)


@pytest.fixture
def quiet_settings(settings: Settings) -> Settings:
    """No announcer loop of the app's own: the tests make each pass themselves."""
    return settings.model_copy(update={"tournament_worker": False})


@pytest.fixture
def app(quiet_settings: Settings) -> FastAPI:
    return create_app(quiet_settings)


def one_pass(client: TestClient) -> list[uuid.UUID]:
    """One pass of the app's announcer, on the app's own event loop."""
    assert client.portal is not None
    service: ScheduleService = client.app.state.tournament_schedules  # type: ignore[attr-defined]
    return client.portal.call(service.announce_due)


def tournaments_of(database_url: str, schedule_id: str) -> list[dict[str, Any]]:
    """The schedule's tournaments as stored, soonest first, with their count of deals."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT t.id, t.name, t.status, t.starts_at, t.ends_at, t.deals, t.guests, "
                    "(SELECT count(*) FROM tournament_deals d WHERE d.tournament_id = t.id) "
                    "AS committed FROM tournaments t WHERE t.schedule_id = :schedule "
                    "ORDER BY t.starts_at"
                ).bindparams(bindparam("schedule", type_=Uuid)),
                {"schedule": uuid.UUID(schedule_id)},
            )
            return [dict(row._mapping) for row in rows]
    finally:
        engine.dispose()


def as_utc(value: object) -> datetime:
    """A stored time as an aware UTC datetime (SQLite's come back as naive text)."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def create(client: TestClient, **changes: object) -> httpx.Response:
    answer: httpx.Response = client.post(
        "/tournament-schedules", json={**SCHEDULE, **changes}, headers=SUITE_OPERATOR
    )
    return answer


# ---------------------------------------------------------------- the routes


def test_an_operator_creates_reads_lists_and_deletes_a_schedule(client: TestClient) -> None:
    with fake_clock.frozen(datetime(2026, 12, 30, 12, 0, tzinfo=UTC)):
        created = create(client)
        assert created.status_code == 201, created.text
        schedule = created.json()
        assert created.headers["Location"] == f"/tournament-schedules/{schedule['id']}"
        assert {key: schedule[key] for key in SCHEDULE} == SCHEDULE
        assert schedule["max_entrants"] is None and schedule["cancelled_at"] is None
        assert schedule["from_settings"] is False
        assert schedule["next_start"] == "2027-01-01T20:00:00Z"
        read = client.get(f"/tournament-schedules/{schedule['id']}", headers=SUITE_OPERATOR)
        assert read.status_code == 200 and read.json() == schedule
        listed = client.get("/tournament-schedules", headers=SUITE_OPERATOR).json()
        assert listed == {"schedules": [schedule]}

        deleted = client.delete(f"/tournament-schedules/{schedule['id']}", headers=SUITE_OPERATOR)
        assert deleted.status_code == 204 and deleted.content == b""
        after = client.get(f"/tournament-schedules/{schedule['id']}", headers=SUITE_OPERATOR)
        assert after.json()["cancelled_at"] == "2026-12-30T12:00:00Z"
        assert after.json()["next_start"] is None
        again = client.delete(f"/tournament-schedules/{schedule['id']}", headers=SUITE_OPERATOR)
        assert again.status_code == 204  # deleting it again changes nothing


def test_a_players_key_or_no_key_is_refused_and_nothing_is_stored(client: TestClient) -> None:
    key = client.post("/players", json={"name": "ana"}).json()["key"]
    player = {"Authorization": f"Bearer {key}"}
    refused = client.post("/tournament-schedules", json=SCHEDULE, headers=player)
    assert refused.status_code == 403 and refused.json()["code"] == "not_a_moderator"
    anonymous = client.post("/tournament-schedules", json=SCHEDULE)
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "missing_token"
    for answer in (
        client.get("/tournament-schedules", headers=player),
        client.get(f"/tournament-schedules/{uuid.uuid4()}", headers=player),
        client.delete(f"/tournament-schedules/{uuid.uuid4()}", headers=player),
    ):
        assert answer.status_code == 403, answer.text
    listed = client.get("/tournament-schedules", headers=SUITE_OPERATOR).json()
    assert listed == {"schedules": []}


# Cron expressions croniter (or a schedule) refuses, and a word of each reason.
BAD_CRONS = [
    ("61 * * * *", "out of range"),
    ("* * * * 8", "out of range"),
    ("every friday", "2 fields"),
    ("0 20 * * 5 0", "6 fields"),  # croniter's seconds: a tournament starts on a minute
    ("H 20 * * 5", "hash_id"),
    ("@reboot", "not a cron expression"),
    ("0 0 31 2 *", "never fires"),
]
# (cron, duration in minutes, whether its tournaments overlap)
OVERLAPS = [
    ("*/30 * * * *", 31, True),
    ("*/30 * * * *", 30, False),  # back to back
    ("0 9,17 * * *", 8 * 60 + 1, True),  # 9:00 to 17:00 is 8 hours
    ("0 20 * * *", 24 * 60 + 1, True),  # one day's to the next's
    ("0 20 * * 1,2", 2 * 24 * 60, True),  # Monday's to Tuesday's
    ("0 20 * * 1,4", 3 * 24 * 60, False),  # Monday to Thursday, Thursday to Monday
    ("0 0 28,29 2 *", 2 * 24 * 60, True),  # only in a leap year's February
    ("@weekly", 7 * 24 * 60, False),
]
OUT_OF_BOUNDS: list[dict[str, Any]] = [
    {"duration_minutes": 0},
    {"duration_minutes": 7 * 24 * 60 + 1},
    {"announce_ahead_minutes": -1},
    {"announce_ahead_minutes": 7 * 24 * 60 + 1},
    {"deals": 0},
    {"deals": 11},
    {"deals": "5"},
    {"name": ""},
    {"name": "x" * 65},
    {"name": "   "},
    {"max_entrants": 0},
    {"guests": "yes"},
    {"colour": "red"},
]


def test_a_bad_cron_an_overlap_or_a_bound_is_422_with_its_reason_and_stores_nothing(
    client: TestClient,
) -> None:
    for cron, reason in BAD_CRONS:
        refused = create(client, cron=cron, duration_minutes=1)
        assert refused.status_code == 422, refused.text
        problem = refused.json()
        assert problem["code"] == "invalid_request"
        assert reason in json.dumps(problem["errors"]), problem
    for cron, duration, overlap in OVERLAPS:
        answer = create(client, name=f"{cron} {duration}", cron=cron, duration_minutes=duration)
        if overlap:
            assert answer.status_code == 422, (cron, answer.text)
            assert "overlap" in json.dumps(answer.json()["errors"])
        else:
            assert answer.status_code == 201, (cron, answer.text)
    for change in OUT_OF_BOUNDS:
        refused = create(client, **{"cron": "0 20 * * 5", "duration_minutes": 60, **change})
        assert refused.status_code == 422, (change, refused.text)
        assert refused.json()["code"] == "invalid_request"
    stored = client.get("/tournament-schedules", headers=SUITE_OPERATOR).json()["schedules"]
    assert sorted(s["name"] for s in stored) == sorted(
        f"{cron} {duration}" for cron, duration, overlap in OVERLAPS if not overlap
    )


def test_an_unknown_schedule_is_404(client: TestClient) -> None:
    for path in (f"/tournament-schedules/{uuid.uuid4()}", "/tournament-schedules/nope"):
        for answer in (
            client.get(path, headers=SUITE_OPERATOR),
            client.delete(path, headers=SUITE_OPERATOR),
        ):
            assert answer.status_code == 404, answer.text
            assert answer.json()["code"] == "schedule_not_found"


# ---------------------------------------------------------------- the announcer


def test_a_tournament_is_announced_once_when_its_announcement_time_comes(
    client: TestClient, database_url: str
) -> None:
    with fake_clock.frozen(FRIDAY_8PM - timedelta(days=3)) as clock:
        schedule = create(client, announce_ahead_minutes=60, max_entrants=32).json()
        clock.set(FRIDAY_8PM - timedelta(minutes=61))
        assert one_pass(client) == []
        clock.set(FRIDAY_8PM - timedelta(minutes=60))
        made = one_pass(client)
        assert len(made) == 1
        assert one_pass(client) == []  # made already
        clock.advance(minutes=30)
        assert one_pass(client) == []
    [tournament] = tournaments_of(database_url, schedule["id"])
    assert uuid.UUID(str(tournament["id"])) == made[0]
    assert tournament["name"] == "Friday night" and tournament["status"] == "announced"
    assert as_utc(tournament["starts_at"]) == FRIDAY_8PM
    assert as_utc(tournament["ends_at"]) == FRIDAY_8PM + timedelta(minutes=120)
    assert tournament["deals"] == tournament["committed"] == 5


def test_every_start_within_the_announcement_time_is_announced_and_none_beyond(
    client: TestClient, database_url: str
) -> None:
    # 45 seconds after a start: longer ago than a pass (30 s), so that one is not made.
    with fake_clock.frozen(datetime(2027, 1, 1, 12, 0, 45, tzinfo=UTC)):
        schedule = create(
            client, cron="*/15 * * * *", duration_minutes=15, announce_ahead_minutes=60
        ).json()
        assert len(one_pass(client)) == 4  # 12:15, 12:30, 12:45 and 13:00
        assert one_pass(client) == []
    starts = [as_utc(t["starts_at"]) for t in tournaments_of(database_url, schedule["id"])]
    noon = datetime(2027, 1, 1, 12, 0, tzinfo=UTC)
    assert starts == [noon + timedelta(minutes=m) for m in (15, 30, 45, 60)]


def test_a_missed_window_announces_the_next_start_only(
    client: TestClient, database_url: str
) -> None:
    with fake_clock.frozen(FRIDAY_8PM - timedelta(days=10)) as clock:
        schedule = create(client, cron="0 20 * * *", announce_ahead_minutes=60).json()
        # The service was down for a week: the starts it missed are not made late.
        clock.set(FRIDAY_8PM - timedelta(minutes=30))
        assert len(one_pass(client)) == 1
        clock.set(FRIDAY_8PM + timedelta(days=1, minutes=-59))
        assert len(one_pass(client)) == 1
    starts = [as_utc(t["starts_at"]) for t in tournaments_of(database_url, schedule["id"])]
    assert starts == [FRIDAY_8PM, FRIDAY_8PM + timedelta(days=1)]


def test_a_start_announced_no_ahead_is_made_on_the_first_pass_after_it(
    client: TestClient, database_url: str
) -> None:
    with fake_clock.frozen(FRIDAY_8PM - timedelta(hours=1)) as clock:
        schedule = create(client, cron="0 20 * * *", announce_ahead_minutes=0).json()
        assert one_pass(client) == []
        clock.set(FRIDAY_8PM + timedelta(seconds=5))  # a pass a little after the start
        assert len(one_pass(client)) == 1
    [tournament] = tournaments_of(database_url, schedule["id"])
    assert as_utc(tournament["starts_at"]) == FRIDAY_8PM
    assert tournament["status"] == "running"  # it started at once


def test_a_deleted_schedule_announces_no_more_and_its_tournaments_stay(
    client: TestClient, database_url: str
) -> None:
    with fake_clock.frozen(FRIDAY_8PM - timedelta(minutes=30)) as clock:
        schedule = create(client, cron="0 20 * * *", announce_ahead_minutes=60).json()
        assert len(one_pass(client)) == 1
        client.delete(f"/tournament-schedules/{schedule['id']}", headers=SUITE_OPERATOR)
        clock.advance(days=1)
        assert one_pass(client) == []
    assert len(tournaments_of(database_url, schedule["id"])) == 1


# ---------------------------------------------------------------- schedules in settings

SET: list[dict[str, Any]] = [
    {"name": "Hourly", "cron": "0 * * * *", "duration_minutes": 30, "deals": 3},
    {"name": "Daily", "cron": "@daily", "duration_minutes": 60, "deals": 10, "guests": True},
]


def schedules_of(bodies: list[dict[str, Any]]) -> list[ScheduleIn]:
    return [ScheduleIn.model_validate(body) for body in bodies]


def listed(settings: Settings) -> list[dict[str, Any]]:
    with TestClient(create_app(settings)) as client:
        answer = client.get("/tournament-schedules", headers=SUITE_OPERATOR)
        schedules: list[dict[str, Any]] = answer.json()["schedules"]
        return schedules


def test_the_settings_schedules_are_stored_once_under_ids_of_their_names(
    quiet_settings: Settings,
) -> None:
    configured = quiet_settings.model_copy(update={"tournament_schedules": schedules_of(SET)})
    first = listed(configured)
    again = listed(configured)  # a restart, or a second replica
    assert again == first
    assert sorted((s["name"], s["id"]) for s in first) == sorted(
        (entry["name"], str(schedule_settings_id(str(entry["name"])))) for entry in SET
    )
    assert all(s["from_settings"] and s["cancelled_at"] is None for s in first)
    # A schedule taken out of the setting stops; one changed there changes.
    changed = [{**SET[0], "deals": 4}]
    fewer = quiet_settings.model_copy(update={"tournament_schedules": schedules_of(changed)})
    after = {s["name"]: s for s in listed(fewer)}
    assert after["Hourly"]["deals"] == 4 and after["Hourly"]["cancelled_at"] is None
    assert after["Daily"]["cancelled_at"] is not None


def test_the_setting_is_a_json_list_of_schedules_and_bad_ones_name_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FOURSQUARE_TOURNAMENT_SCHEDULES", json.dumps(SET))
    assert [s.name for s in Settings().tournament_schedules] == ["Hourly", "Daily"]
    for bad, reason in (
        ([SET[0], SET[0]], "two schedules are named 'Hourly'"),
        ([{**SET[0], "cron": "0 * * *"}], "4 fields"),
        ([{**SET[0], "duration_minutes": 61}], "overlap"),
    ):
        monkeypatch.setenv("FOURSQUARE_TOURNAMENT_SCHEDULES", json.dumps(bad))
        with pytest.raises(ValidationError, match=re.escape(reason)) as raised:
            Settings()
        assert "tournament_schedules" in str(raised.value)


# ---------------------------------------------------------------- replicas

EVERY_MINUTE = {
    "name": "Every minute",
    "cron": "* * * * *",
    "duration_minutes": 1,
    "deals": 2,
    "announce_ahead_minutes": 5,
}
ANNOUNCED = re.compile(r"tournament (\S+) of schedule (\S+) \(.*\) announced: it starts at (\S+)")


@pytest.mark.slow
def test_two_replicas_announce_each_scheduled_tournament_once(
    database_url: str, tmp_path: Path
) -> None:
    env = {
        "FOURSQUARE_TOURNAMENT_SCHEDULES": json.dumps([EVERY_MINUTE]),
        "FOURSQUARE_TOURNAMENT_ANNOUNCE_SECONDS": "0.1",
        "FOURSQUARE_LOG_FORMAT": "text",
    }
    schedule_id = str(schedule_settings_id(EVERY_MINUTE["name"]))  # type: ignore[arg-type]
    paths = [tmp_path / "first.log", tmp_path / "second.log"]
    options: dict[str, Any] = {"extra_env": env, "log_level": "info"}
    with (
        running_server(database_url, log_path=paths[0], **options) as first,
        running_server(database_url, log_path=paths[1], **options) as second,
    ):
        # One more schedule, sent to one replica: both announce its tournaments.
        sent = httpx.post(
            f"{second.base_url}/tournament-schedules",
            json={**EVERY_MINUTE, "name": "Sent", "cron": "*/2 * * * *"},
            headers=SUITE_OPERATOR,
            timeout=30,
        )
        assert sent.status_code == 201, sent.text
        # Every minute's start in the next five minutes (the one ending the window too, once
        # the minute turns): five at least, each made, for both schedules.
        wait_for(lambda: tournaments_of(database_url, schedule_id), lambda t: len(t) >= 5)
        wait_for(lambda: tournaments_of(database_url, sent.json()["id"]), lambda t: len(t) >= 2)
        listed_by = [
            httpx.get(f"{s.base_url}/tournament-schedules", headers=SUITE_OPERATOR, timeout=30)
            for s in (first, second)
        ]
    assert listed_by[0].json() == listed_by[1].json()
    assert [s["name"] for s in listed_by[0].json()["schedules"]] == ["Every minute", "Sent"]
    logs = [path.read_text(errors="replace") for path in paths]
    for log in logs:  # no replica's pass failed (on a double's insert, say)
        assert "announcing the scheduled tournaments failed" not in log, log[-4000:]
    announced = [match.groups() for log in logs for match in ANNOUNCED.finditer(log)]
    # Each tournament was announced by one replica only, and each is one occurrence.
    for schedule in (schedule_id, sent.json()["id"]):
        stored = tournaments_of(database_url, schedule)
        ids = [str(uuid.UUID(str(t["id"]))) for t in stored]
        by_logs = [made for made, of, _ in announced if of == schedule]
        assert sorted(by_logs) == sorted(ids), (by_logs, ids)
        starts = [as_utc(t["starts_at"]) for t in stored]
        assert len(set(starts)) == len(starts)
        assert Counter(t["committed"] for t in stored) == {2: len(stored)}
