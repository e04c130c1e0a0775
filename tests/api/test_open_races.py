"""Open races (issue 53): a race opened with ``public: true`` is listed, joinable by anyone,
while it is in its lobby with a free seat; a private race never is. The list is paged, and
its stream tells each race that opens, changes (a join or a leave) and closes (started, full,
or left), resuming after ``Last-Event-ID``; on both databases."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from fastapi.testclient import TestClient

from tests.api.test_races import (
    app,  # noqa: F401  (the races' app: a short countdown)
    bearer,
    events_of,
    race_of,
    register,
    wait_for,
)


def open_race(client: TestClient, name: str, **rules: Any) -> dict[str, Any]:
    opened = client.post("/races", json={"player": name, **rules})
    assert opened.status_code == 201, opened.text
    race: dict[str, Any] = opened.json()
    return race


def listed(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/races/open", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def listed_ids(client: TestClient) -> list[str]:
    return [race["id"] for race in listed(client, limit=100)["races"]]


def test_public_races_are_listed_newest_first_and_private_ones_never(
    client: TestClient,
) -> None:
    private = open_race(client, "pri")
    assert private["public"] is False
    first = open_race(client, "ana", public=True, seats=3, time_limit=120)
    second = open_race(client, "cyd", public=True, computer=True, level="good")
    assert first["public"] is True and race_of(client, first["id"])["public"] is True
    page = listed(client)
    assert [race["id"] for race in page["races"]] == [second["id"], first["id"]]
    assert page["next_cursor"] is None
    assert page["races"][1] == {
        "id": first["id"],
        "seats": 3,
        "racers": 1,
        "names": ["ana"],
        "time_limit": 120,
        "level": None,
        "created_at": first["created_at"],
    }
    assert page["races"][0]["names"] == ["cyd", "computer"]
    assert page["races"][0]["racers"] == 2 and page["races"][0]["level"] == "good"
    # Nothing of a private race, ever: not its id, not its racers' names.
    everything = str(listed(client, limit=100))
    assert private["id"] not in everything and "pri" not in everything


def test_the_list_is_paged_by_its_cursor(client: TestClient) -> None:
    opened = [open_race(client, f"pla{n}", public=True)["id"] for n in range(5)]
    seen: list[str] = []
    cursor = None
    while True:
        page = listed(client, limit=2, **({"cursor": cursor} if cursor else {}))
        assert len(page["races"]) <= 2
        seen += [race["id"] for race in page["races"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == opened[::-1]
    foreign = client.get("/races/open", params={"cursor": "bm90LmEuY3Vyc29y.AAAA"})
    assert foreign.status_code == 422 and foreign.json()["code"] == "invalid_cursor"
    too_many = client.get("/races/open", params={"limit": 101})
    assert too_many.status_code == 422


def test_a_race_joined_from_the_list_leaves_it_when_full_started_or_closed(
    client: TestClient,
) -> None:
    full = open_race(client, "ana", public=True, seats=2)
    started = open_race(client, "cyd", public=True, seats=4)
    closed = open_race(client, "dee", public=True)
    assert listed_ids(client) == [closed["id"], started["id"], full["id"]]
    # Anyone joins from the list: the race fills, starts by itself and leaves the list.
    bob = register(client, "bob")
    joined = client.post(f"/races/{full['id']}/racers", headers=bob)
    assert joined.status_code == 201, joined.text
    assert joined.json()["status"] == "countdown"
    assert listed_ids(client) == [closed["id"], started["id"]]
    # One more racer in a race with seats left: still listed, with its new racer.
    eve = client.post(f"/races/{started['id']}/racers", json={"player": "eve"})
    assert eve.status_code == 201, eve.text
    assert listed(client)["races"][1]["names"] == ["cyd", "eve"]
    # Its opener starts it: off the list.
    start = client.post(f"/races/{started['id']}/start", headers=bearer(started["racer_token"]))
    assert start.status_code == 200, start.text
    assert listed_ids(client) == [closed["id"]]
    # Its last person leaves: closed, off the list.
    left = client.post(f"/races/{closed['id']}/leave", headers=bearer(closed["racer_token"]))
    assert left.status_code == 200 and left.json()["status"] == "closed"
    assert listed_ids(client) == []
    wait_for(lambda: race_of(client, full["id"]), lambda race: race["status"] == "running")
    assert listed_ids(client) == []


def read_events(lines: Iterator[str], buffer: list[str], count: int) -> list[Any]:
    """The next ``count`` events of a stream being read (``buffer``: what is left over of the
    last chunk)."""
    got: list[Any] = []
    while len(got) < count:
        text = buffer.pop() if buffer else ""
        while "\r\n\r\n" not in text:
            text += next(lines)
        *blocks, rest = text.split("\r\n\r\n")
        buffer.append(rest)
        got += events_of("\r\n\r\n".join(blocks) + "\r\n\r\n")
    return got


def test_the_open_list_stream_tells_opened_changed_and_closed_and_resumes(
    client: TestClient,
) -> None:
    before = open_race(client, "ana", public=True, seats=3)
    open_race(client, "pri")  # private: never in the stream
    with client.stream("GET", "/races/open/events") as stream:
        assert stream.status_code == 200
        lines = stream.iter_text()
        buffer: list[str] = []
        # What is open now, first.
        [(first_id, kind, data)] = read_events(lines, buffer, 1)
        assert kind == "opened" and data["id"] == before["id"] and data["names"] == ["ana"]
        # Opened live, from another client.
        later = open_race(client, "cyd", public=True, seats=2)
        [(_, kind, data)] = read_events(lines, buffer, 1)
        assert (kind, data["id"], data["racers"]) == ("opened", later["id"], 1)
        # A join: changed.
        joined = client.post(f"/races/{before['id']}/racers", json={"player": "bob"})
        assert joined.status_code == 201
        [(changed_id, kind, data)] = read_events(lines, buffer, 1)
        assert (kind, data["id"], data["names"]) == ("changed", before["id"], ["ana", "bob"])
        # Full (it starts by itself): closed.
        filled = client.post(f"/races/{later['id']}/racers", json={"player": "dee"})
        assert filled.status_code == 201
        [(closed_id, kind, data)] = read_events(lines, buffer, 1)
        assert (kind, data) == ("closed", {"id": later["id"]})
    assert first_id is not None and changed_id is not None and closed_id is not None
    # Resumed after the first event: only what changed since, as it is now.
    resumed_stream = _first_events(client, {"Last-Event-ID": first_id}, 1)
    assert [(kind, data["id"]) for _, kind, data in resumed_stream] == [("changed", before["id"])]
    # Resumed after the join: a race that has since left the list is told closed; then, the
    # list being as the watcher knows it, the stream waits (read here with a new opening).
    after_join = _first_events(client, {"Last-Event-ID": changed_id}, 1, then_open=True)
    assert [(kind, data["id"]) for _, kind, data in after_join][:1] == [("closed", later["id"])]
    assert after_join[1][1] == "opened" and after_join[1][2]["names"] == ["fay"]
    for bad in ("x", "0" * 32, "-" * 3, "g" * 33):
        refused = client.get("/races/open/events", headers={"Last-Event-ID": bad})
        assert refused.status_code == 422, bad
        assert refused.json()["code"] == "invalid_last_event_id"


def _first_events(
    client: TestClient, headers: dict[str, str], count: int, then_open: bool = False
) -> list[Any]:
    with client.stream("GET", "/races/open/events", headers=headers) as stream:
        assert stream.status_code == 200
        lines = stream.iter_text()
        buffer: list[str] = []
        got = read_events(lines, buffer, count)
        if then_open:
            open_race(client, "fay", public=True)
            got += read_events(lines, buffer, 1)
    return got


def test_a_public_race_opened_is_heard_within_the_deadline(client: TestClient) -> None:
    # The stream's first read is of an empty list: the first event is the race opened after.
    with client.stream("GET", "/races/open/events") as stream:
        lines = stream.iter_text()
        race = open_race(client, "gil", public=True)
        [(event_id, kind, data)] = read_events(lines, [], 1)
    assert kind == "opened" and data["id"] == race["id"]
    # Its id: the race, and its count of rare events (its opener's join).
    assert event_id == f"{race['id'].replace('-', '')}1"
