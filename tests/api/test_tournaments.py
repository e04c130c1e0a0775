"""Tournaments through the HTTP API on SQLite and PostgreSQL: the operators' create, edit and
cancel; entrants joining, each playing the committed deals once, in order, in sealed games
through the ordinary placement endpoint; the standings (order, ties, pages, `around`); the
end, the reveal, the fair-play review's word and the final standings; the stream; trophies.

The app's ticker is off: the tests move the service's clock and run the ticker's work
themselves (:func:`tick`), and the fair-play runner is off too, so that each test gives the
review's word itself (as the runner would store it)."""

from __future__ import annotations

import hashlib
import json
import logging
import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from api.app import create_app
from api.core.database import Database
from api.games import GameService
from api.settings import Settings
from api.tournaments import store as tournament_store
from engine.solver import solve
from testkit import clock as fake_clock
from testkit.clock import FrozenClock
from tests.api.test_hidden_information import card_codes
from tests.support.fairplay import SUITE_OPERATOR as OPERATOR

T0 = datetime(2026, 12, 5, 12, 0, tzinfo=UTC)
REVIEW_WARNING = 600


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        Settings(
            database_url=database_url,
            migrate_on_start=False,
            tournament_worker=False,
            fairplay_worker=False,
            tournament_review_warn_seconds=REVIEW_WARNING,
        )
    )


@pytest.fixture
def clock() -> Iterator[FrozenClock]:
    with fake_clock.frozen(T0) as frozen:
        yield frozen


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def register(client: TestClient, name: str) -> dict[str, str]:
    response = client.post("/players", json={"name": name})
    assert response.status_code == 201, response.text
    return bearer(response.json()["key"])


def tick(client: TestClient, app: FastAPI) -> None:
    """The ticker's work due now, on the app's own loop (as its task would run it)."""
    assert client.portal is not None
    client.portal.call(app.state.tournaments.ticker.look_after)


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    body = {
        "name": "Friday cup",
        "starts_at": (T0 + timedelta(minutes=1)).isoformat(),
        "ends_at": (T0 + timedelta(hours=1)).isoformat(),
        "deals": 2,
        "guests": True,
    } | fields
    created = client.post("/tournaments", json=body, headers=OPERATOR)
    assert created.status_code == 201, created.text
    tournament: dict[str, Any] = created.json()
    assert created.headers["Location"] == f"/tournaments/{tournament['id']}"
    return tournament


def join(
    client: TestClient, tournament_id: str, auth: dict[str, str] | None = None, **body: Any
) -> dict[str, Any]:
    joined = client.post(f"/tournaments/{tournament_id}/entrants", json=body, headers=auth or {})
    assert joined.status_code == 201, joined.text
    answer: dict[str, Any] = joined.json()
    return answer


def guest(client: TestClient, tournament_id: str, name: str) -> dict[str, str]:
    answer = join(client, tournament_id, name=name)
    assert answer["token"] and answer["entry"]["account"] is False
    return bearer(answer["token"])


def refused(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    assert response.json()["type"].endswith(code), response.text


def deal(client: TestClient, tournament_id: str, auth: dict[str, str]) -> dict[str, Any]:
    dealt = client.post(f"/tournaments/{tournament_id}/games", headers=auth)
    assert dealt.status_code == 201, dealt.text
    answer: dict[str, Any] = dealt.json()
    return answer


def deck_of(database: Database, game_id: str) -> Any:
    """An entrant's deal, read from the database (the test knows what no entrant does)."""
    with database.reading() as connection:
        return GameService.load_in(connection, uuid.UUID(game_id)).game.deck


def play_line(
    client: TestClient, game_id: str, auth: dict[str, str], cells: list[tuple[int, int]]
) -> dict[str, Any]:
    game: dict[str, Any] = {}
    for row, col in cells:
        placed = client.post(
            f"/games/{game_id}/placements", json={"row": row, "col": col}, headers=auth
        )
        assert placed.status_code == 201, placed.text
        game = placed.json()["game"]
    return game


def play_out(client: TestClient, game_id: str, auth: dict[str, str], seed: int) -> dict[str, Any]:
    """Random legal placements until the game is over."""
    rng = random.Random(seed)
    while True:
        state = client.get(f"/games/{game_id}", headers=auth).json()
        if state["status"] != "in_progress":
            return state  # type: ignore[no-any-return]
        cell = rng.choice(state["legal_placements"])
        placed = client.post(f"/games/{game_id}/placements", json=cell, headers=auth)
        assert placed.status_code == 201, placed.text


def winning_line(database: Database, game_id: str) -> list[tuple[int, int]] | None:
    optimum = solve(deck_of(database, game_id), nodes=200_000)
    return [(p.row, p.col) for p in optimum.line] if optimum.score is not None else None


def set_review(database: Database, game_id: str, word: str) -> None:
    """The fair-play review's word on a win, as its runner would store it."""
    with database.transaction() as session:
        GameService.set_review(session, [uuid.UUID(game_id)], word, ("pending",))


def events_of(client: TestClient, tournament_id: str, after: str | None = None) -> list[Any]:
    """The tournament's stream, read to its end (it closes after `final` or `cancelled`)."""
    headers = {"Last-Event-ID": after} if after is not None else {}
    found: list[Any] = []
    with client.stream("GET", f"/tournaments/{tournament_id}/events", headers=headers) as stream:
        assert stream.status_code == 200
        kind = event_id = None
        for line in stream.iter_lines():
            if line.startswith("event:"):
                kind = line.split(":", 1)[1].strip()
            elif line.startswith("id:"):
                event_id = line.split(":", 1)[1].strip()
            elif line.startswith("data:") and kind is not None:
                found.append((kind, event_id, json.loads(line.split(":", 1)[1])))
                kind = None
    return found


def commitment_of(reveal: dict[str, Any]) -> str:
    return hashlib.sha256(f"{reveal['salt']}:{','.join(reveal['deck'])}".encode()).hexdigest()


# ---------------------------------------------------------------- the operators'


def test_operators_create_edit_and_cancel_before_the_start_and_nobody_else_may(
    client: TestClient, app: FastAPI, clock: FrozenClock
) -> None:
    body = {
        "name": "Cup",
        "starts_at": (T0 + timedelta(minutes=5)).isoformat(),
        "ends_at": (T0 + timedelta(minutes=65)).isoformat(),
        "deals": 2,
        "guests": False,
    }
    refused(client.post("/tournaments", json=body), 401, "missing_token")
    ana = register(client, "ana")
    refused(client.post("/tournaments", json=body, headers=ana), 403, "not_a_moderator")
    backwards = body | {"ends_at": body["starts_at"]}
    refused(
        client.post("/tournaments", json=backwards, headers=OPERATOR), 422, "invalid_tournament"
    )
    refused(
        client.post("/tournaments", json=body | {"deals": 11}, headers=OPERATOR),
        422,
        "invalid_request",
    )
    assert client.get("/tournaments").json()["tournaments"] == []  # nothing was made

    created = create(client, **body)
    assert created["status"] == "announced" and created["guests"] is False
    assert len(created["commitments"]) == 2 and created["reveal"] is None
    assert created["winners"] == [] and created["you"] is None
    tournament_id = created["id"]
    path = f"/tournaments/{tournament_id}"

    refused(client.patch(path, json={"deals": 3}, headers=ana), 403, "not_a_moderator")
    edited = client.patch(path, json={"deals": 3, "name": "Big cup"}, headers=OPERATOR)
    assert edited.status_code == 200, edited.text
    assert edited.json()["name"] == "Big cup" and len(edited.json()["commitments"]) == 3
    refused(
        client.patch(path, json={"ends_at": body["starts_at"]}, headers=OPERATOR),
        422,
        "invalid_tournament",
    )
    assert client.get(path).json()["ends_at"].startswith("2026-12-05T13:05")  # unchanged

    # Accounts only: a guest is refused clearly; an account enters and waits for the start.
    refused(client.post(f"{path}/entrants", json={"name": "bob"}), 403, "guests_not_allowed")
    join(client, tournament_id, ana)
    refused(client.post(f"{path}/games", headers=ana), 409, "tournament_not_running")
    listed = client.get("/tournaments").json()["tournaments"]
    assert [t["id"] for t in listed] == [tournament_id] and listed[0]["entrants"] == 1

    refused(client.post(f"{path}/cancel", headers=ana), 403, "not_a_moderator")
    cancelled = client.post(f"{path}/cancel", headers=OPERATOR)
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    refused(client.post(f"{path}/cancel", headers=OPERATOR), 409, "tournament_started")
    refused(client.patch(path, json={"deals": 1}, headers=OPERATOR), 409, "tournament_started")
    refused(
        client.post(f"{path}/entrants", headers=register(client, "cyd")), 409, "tournament_not_open"
    )
    assert client.get("/tournaments").json()["tournaments"] == []
    archive = client.get("/tournaments?status=cancelled").json()["tournaments"]
    assert [t["id"] for t in archive] == [tournament_id]

    # Its entrants are told on its stream, which closes after it.
    kinds = [kind for kind, _, _ in events_of(client, tournament_id)]
    assert kinds == ["announced", "announced", "joined", "standings", "cancelled"]

    # Once running, it is neither edited nor cancelled; a start already past runs at once.
    running = create(client, starts_at=(T0 - timedelta(minutes=1)).isoformat())
    assert running["status"] == "running"
    run_path = f"/tournaments/{running['id']}"
    refused(client.patch(run_path, json={"deals": 1}, headers=OPERATOR), 409, "tournament_started")
    refused(client.post(f"{run_path}/cancel", headers=OPERATOR), 409, "tournament_started")
    refused(client.get(f"/tournaments/{uuid.uuid4()}"), 404, "tournament_not_found")
    refused(client.get("/tournaments/not-an-id"), 404, "tournament_not_found")
    refused(client.get("/tournaments?status=bogus"), 422, "invalid_request")


def test_the_cap_and_leaving_before_the_start(client: TestClient, clock: FrozenClock) -> None:
    tournament_id = create(client, max_entrants=1)["id"]
    path = f"/tournaments/{tournament_id}"
    ana = guest(client, tournament_id, "ana")
    refused(client.post(f"{path}/entrants", json={"name": "bob"}), 409, "tournament_full")
    refused(client.post(f"{path}/entrants", json={"name": "ANA"}), 409, "already_entered")
    refused(client.delete(f"{path}/entrants/me", headers=bearer("x" * 43)), 403, "not_an_entrant")
    left = client.delete(f"{path}/entrants/me", headers=ana)
    assert left.status_code == 204, left.text
    assert client.get(path).json()["entrants"] == 0  # the entry went: the seat is free
    guest(client, tournament_id, "bob")
    standings = client.get(f"{path}/standings").json()
    assert [e["name"] for e in standings["entries"]] == ["bob"] and standings["total"] == 1


# ---------------------------------------------------------------- playing


def test_entrants_play_each_deal_once_sealed_to_final_standings_that_verify(
    client: TestClient, app: FastAPI, database: Database, clock: FrozenClock
) -> None:
    created = create(client)
    tournament_id = created["id"]
    path = f"/tournaments/{tournament_id}"
    ana = register(client, "ana")
    mine = join(client, tournament_id, ana)
    assert mine["token"] is None and mine["entry"]["account"] is True
    refused(client.post(f"{path}/entrants", headers=ana), 409, "already_entered")
    bo = guest(client, tournament_id, "bob")
    refused(client.post(f"{path}/entrants", json={"name": "bob"}), 409, "already_entered")
    refused(client.post(f"{path}/games", headers=register(client, "cyd")), 403, "not_an_entrant")
    refused(client.post(f"{path}/games", headers=ana), 409, "tournament_not_running")

    clock.advance(minutes=2)
    tick(client, app)
    assert client.get(path).json()["status"] == "running"
    you = client.get(path, headers=ana).json()["you"]
    assert you["next_deal"] == 1 and you["current_game"] is None

    first = deal(client, tournament_id, ana)
    assert first["deal"] == 1 and first["game"]["status"] == "in_progress"
    game_a = first["game_id"]
    # Its deal is the committed one.
    assert first["game"]["deck_commitment"] == created["commitments"][0]
    refused(client.post(f"{path}/games", headers=ana), 409, "deal_in_progress")
    assert client.get(path, headers=ana).json()["you"]["current_game"] == game_a

    # Sealed: nobody else reads the game, its history, or finds its id anywhere.
    for who in ({}, bo):
        assert client.get(f"/games/{game_a}", headers=who).status_code == 403
        assert client.get(f"/games/{game_a}/placements", headers=who).status_code == 403
    assert client.get(f"/games/{game_a}/hint", headers=ana).status_code in (403, 409)
    for public in (
        client.get(path),
        client.get(path, headers=bo),
        client.get(f"{path}/standings"),
        client.get("/tournaments"),
        client.get("/players/ana/games"),
        client.get("/games?status=in_progress"),
        client.get("/leaderboard"),
    ):
        assert game_a not in public.text, public.request.url

    line = winning_line(database, game_a)
    won = line is not None
    end_a = play_line(client, game_a, ana, line) if line else play_out(client, game_a, ana, 1)
    assert end_a["status"] != "in_progress"
    first_b = deal(client, tournament_id, bo)
    assert first_b["game"]["token"] == bo["Authorization"].split()[1]
    end_b = play_out(client, first_b["game_id"], bo, 2)
    # Placed through the ordinary endpoint with the guest's tournament token; sealed to ana.
    assert client.get(f"/games/{first_b['game_id']}", headers=ana).status_code == 403
    assert end_b["status"] != "in_progress"

    second = deal(client, tournament_id, ana)
    assert second["deal"] == 2
    assert second["game"]["deck_commitment"] == created["commitments"][1]
    play_out(client, second["game_id"], ana, 3)
    refused(client.post(f"{path}/games", headers=ana), 409, "all_deals_played")

    # bo leaves while it runs: it stays, with what it has, and plays no more.
    assert client.delete(f"{path}/entrants/me", headers=bo).status_code == 204
    refused(client.post(f"{path}/games", headers=bo), 409, "entrant_left")

    standings = client.get(f"{path}/standings").json()
    assert standings["status"] == "provisional" and standings["total"] == 2
    entries = {e["name"]: e for e in standings["entries"]}
    assert entries["ana"]["deals_played"] == 2 and entries["bob"]["deals_played"] == 1
    assert entries["bob"]["left"] is True
    score_b = end_b["score"] or 0
    assert entries["ana"]["score"] == (end_a["score"] or 0) and entries["bob"]["score"] == score_b
    assert all(e["games"] is None and e["place"] is None for e in standings["entries"])
    assert not set(card_codes(standings))

    # The end: a late join is refused from the moment it is over, ticker or not.
    clock.set(T0 + timedelta(hours=1))
    refused(client.post(f"{path}/entrants", json={"name": "dee"}), 409, "tournament_not_open")
    refused(client.post(f"{path}/games", headers=ana), 409, "tournament_not_running")
    tick(client, app)
    ended = client.get(path).json()
    assert ended["status"] == "ending"
    # The revealed deals verify against the commitments published at the announcement.
    assert [commitment_of(r) for r in ended["reveal"]] == created["commitments"]
    # The games are public now.
    assert client.get(f"/games/{game_a}").status_code == 200

    if won:  # the win waits for the review's word
        tick(client, app)
        assert client.get(path).json()["status"] == "ending"
        set_review(database, game_a, "clean")
    tick(client, app)
    final = client.get(path).json()
    assert final["status"] == "finished" and final["finished_at"] is not None
    standings = client.get(f"{path}/standings").json()
    assert standings["status"] == "final"
    by_name = {e["name"]: e for e in standings["entries"]}
    assert by_name["ana"]["games"] == [game_a, second["game_id"]]
    assert by_name["bob"]["games"] == [first_b["game_id"]]
    first_place = standings["entries"][0]
    assert first_place["place"] == 1 and final["winners"][0]["name"] == first_place["name"]

    # Trophies: the account's page and its tournaments.
    place_a = by_name["ana"]["place"]
    page = client.get("/players/ana").json()
    assert page["tournaments"]["played"] == 1
    assert page["tournaments"][{1: "first", 2: "second"}[place_a]] == 1
    mine_listed = client.get("/players/ana/tournaments").json()
    assert mine_listed["tournaments"][0]["id"] == tournament_id
    assert mine_listed["tournaments"][0]["place"] == place_a
    archive = client.get("/tournaments?status=finished").json()["tournaments"]
    assert archive[0]["id"] == tournament_id and archive[0]["winners"] == final["winners"]

    # The stream, read whole: no game id before the end, and it closes after `final`.
    events = events_of(client, tournament_id)
    kinds = [kind for kind, _, _ in events]
    assert kinds[:2] == ["announced", "joined"] and kinds[-1] == "final"
    assert "started" in kinds and "deal_finished" in kinds and "ended" in kinds
    ended_at = kinds.index("ended")
    before = json.dumps([data for _, _, data in events[:ended_at]])
    for game_id in (game_a, first_b["game_id"], second["game_id"]):
        assert game_id not in before
    assert not set(card_codes([data for _, _, data in events]))
    finished = [data for kind, _, data in events if kind == "deal_finished"]
    assert {(d["name"], d["deal"]) for d in finished} == {("ana", 1), ("ana", 2), ("bob", 1)}
    # Resumed: only what came after the id sent.
    resumed = events_of(client, tournament_id, after=events[ended_at][1])
    assert [kind for kind, _, _ in resumed] == kinds[ended_at + 1 :]
    refused(client.get(f"{path}/events", headers={"Last-Event-ID": "x"}), 422, "invalid_request")


def test_a_flagged_win_scores_nothing_and_an_unreviewed_one_waits_for_its_review(
    client: TestClient,
    app: FastAPI,
    database: Database,
    clock: FrozenClock,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for _ in range(5):  # a deal no line wins is rare: another tournament then
        tournament_id = create(client, deals=1, starts_at=T0.isoformat())["id"]
        ana, bo = guest(client, tournament_id, "ana"), guest(client, tournament_id, "bob")
        game_a = deal(client, tournament_id, ana)["game_id"]
        line = winning_line(database, game_a)
        if line is not None:
            break
    assert line is not None
    path = f"/tournaments/{tournament_id}"
    won = play_line(client, game_a, ana, line)
    clock.advance(seconds=30)  # bob finishes later
    game_b = deal(client, tournament_id, bo)["game_id"]
    assert play_line(client, game_b, bo, line)["score"] == won["score"] > 0
    # Provisional: both wins count, tied on score and cards; the earlier finish ranks first.
    provisional = client.get(f"{path}/standings").json()["entries"]
    assert [(e["name"], e["rank"]) for e in provisional] == [("ana", 1), ("bob", 2)]

    clock.set(T0 + timedelta(hours=1))
    tick(client, app)
    set_review(database, game_a, "flagged")  # bo's stays pending
    tick(client, app)
    assert client.get(path).json()["status"] == "ending"  # waits for bo's word
    # However long it takes: an unreviewed win never counts; the operator is told, once.
    clock.advance(seconds=REVIEW_WARNING)
    with caplog.at_level(logging.ERROR, logger="foursquare.tournaments"):
        tick(client, app)
        tick(client, app)
    assert client.get(path).json()["status"] == "ending"
    warnings = [r for r in caplog.records if "still waits for the fair-play review" in r.message]
    assert len(warnings) == 1 and tournament_id in warnings[0].message
    set_review(database, game_b, "clean")
    tick(client, app)
    standings = client.get(f"{path}/standings").json()
    assert standings["status"] == "final"
    assert [(e["name"], e["score"], e["place"]) for e in standings["entries"]] == [
        ("bob", won["score"], 1),
        ("ana", 0, 2),
    ]
    assert client.get(path).json()["winners"] == [
        {"place": 1, "name": "bob"},
        {"place": 2, "name": "ana"},
    ]


# ---------------------------------------------------------------- standings


def test_standings_order_ties_pages_and_around(
    client: TestClient, database: Database, clock: FrozenClock
) -> None:
    tournament_id = create(client, starts_at=T0.isoformat())["id"]
    path = f"/tournaments/{tournament_id}"
    names = ["ann", "ben", "cat", "dan", "eve", "fay", "gus"]
    for name in names:
        guest(client, tournament_id, name)
    early, late = T0 + timedelta(minutes=5), T0 + timedelta(minutes=9)
    # (score, cards, last finish) of each: score first, then cards, then the earlier finish;
    # equal all three share a rank (the joining order breaks the tie in the listing).
    rows = {
        "ann": (10, 40, late),
        "ben": (10, 40, early),
        "cat": (12, 30, late),
        "dan": (10, 45, late),
        "eve": (10, 40, late),
        "fay": (0, 0, None),
        "gus": (0, 12, early),
    }
    with database.transaction() as session:
        for number, name in enumerate(names, 1):
            score, cards, finished = rows[name]
            tournament_store.set_entrant(
                session,
                uuid.UUID(tournament_id),
                number,
                score=score,
                cards=cards,
                finished_at=finished,
                deals_played=1 if finished else 0,
            )
    whole = client.get(f"{path}/standings").json()
    order = [(e["name"], e["rank"]) for e in whole["entries"]]
    assert order == [
        ("cat", 1),
        ("dan", 2),
        ("ben", 3),
        ("ann", 4),
        ("eve", 4),
        ("gus", 6),
        ("fay", 7),
    ]
    assert whole["next"] is None and whole["total"] == 7

    paged, cursor = [], None
    while True:
        query = f"{path}/standings?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(query).json()
        paged += [(e["name"], e["rank"]) for e in page["entries"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert paged == order

    around = client.get(f"{path}/standings?limit=3&around=EVE").json()["entries"]
    assert [e["name"] for e in around] == ["ann", "eve", "gus"]
    assert [e["rank"] for e in around] == [4, 4, 6]
    top = client.get(f"{path}/standings?limit=3&around=cat").json()["entries"]
    assert [e["name"] for e in top] == ["cat", "dan", "ben"]
    # Half a page before the entrant and the rest from it, the ranks right across the tie,
    # and the page's cursor goes on from there without counting again.
    middle = client.get(f"{path}/standings?limit=4&around=Ann").json()
    assert [(e["name"], e["rank"]) for e in middle["entries"]] == [
        ("dan", 2),
        ("ben", 3),
        ("ann", 4),
        ("eve", 4),
    ]
    rest = client.get(f"{path}/standings?limit=4&cursor={middle['next']}").json()
    assert [(e["name"], e["rank"]) for e in rest["entries"]] == [("gus", 6), ("fay", 7)]
    assert rest["next"] is None
    bottom = client.get(f"{path}/standings?limit=4&around=fay").json()
    assert [(e["name"], e["rank"]) for e in bottom["entries"]] == [
        ("eve", 4),
        ("gus", 6),
        ("fay", 7),
    ]
    assert bottom["next"] is None
    refused(client.get(f"{path}/standings?cursor=nonsense"), 422, "invalid_cursor")
    foreign = client.get(f"{path}/standings?limit=2").json()["next"]
    other = create(client)["id"]
    refused(client.get(f"/tournaments/{other}/standings?cursor={foreign}"), 422, "invalid_cursor")


def test_a_join_retried_with_its_idempotency_key_gets_the_same_entry_and_token(
    client: TestClient, clock: FrozenClock
) -> None:
    tournament_id = create(client)["id"]
    path = f"/tournaments/{tournament_id}/entrants"
    key = {"Idempotency-Key": str(uuid.uuid4())}
    first = client.post(path, json={"name": "ana"}, headers=key)
    again = client.post(path, json={"name": "ana"}, headers=key)
    assert first.status_code == again.status_code == 201, again.text
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json()["token"] == first.json()["token"] is not None
    assert client.get(f"/tournaments/{tournament_id}").json()["entrants"] == 1
    refused(client.post(path, json={"name": "bob"}, headers=key), 422, "idempotency_key_reused")


def test_a_deal_in_progress_at_the_end_is_lost_and_counted(
    client: TestClient, app: FastAPI, clock: FrozenClock
) -> None:
    tournament_id = create(client, deals=3, starts_at=T0.isoformat())["id"]
    ana = guest(client, tournament_id, "ana")
    game_id = deal(client, tournament_id, ana)["game_id"]
    clock.set(T0 + timedelta(hours=1))
    late = client.post(f"/games/{game_id}/placements", json={"row": 0, "col": 0}, headers=ana)
    refused(late, 409, "time_up")
    tick(client, app)
    assert client.get(f"/tournaments/{tournament_id}").json()["status"] == "ending"
    game = client.get(f"/games/{game_id}").json()  # public now
    assert game["status"] == "lost" and game["end_reason"] == "abandoned"
    tick(client, app)  # no win awaits the review
    standings = client.get(f"/tournaments/{tournament_id}/standings").json()
    assert standings["status"] == "final"
    (entry,) = standings["entries"]
    assert (entry["deals_played"], entry["score"], entry["place"]) == (1, 0, 1)
    assert entry["games"] == [game_id]


def test_a_deal_asked_for_at_the_start_starts_the_tournament_if_the_ticker_has_not(
    client: TestClient, clock: FrozenClock
) -> None:
    tournament_id = create(client)["id"]  # starts a minute after T0
    ana = guest(client, tournament_id, "ana")
    refused(
        client.post(f"/tournaments/{tournament_id}/games", headers=ana),
        409,
        "tournament_not_running",
    )
    clock.advance(minutes=1)
    assert deal(client, tournament_id, ana)["deal"] == 1
    assert client.get(f"/tournaments/{tournament_id}").json()["status"] == "running"
