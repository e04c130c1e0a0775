"""The leaderboard: won games ranked by score then finish time, paged by an opaque cursor."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import random
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, text

from api.core.database import Database
from api.core.names import name_skeleton
from api.games.tables import games
from api.leaderboards import store as leaderboards_store
from api.leaderboards.store import ScoreRecord
from tests.api.conformance import play_vector, won_vectors
from tests.conftest import MakeGame
from tests.support.fairplay import boarded

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def record_win(
    database: Database,
    score: int,
    finished_at: datetime,
    player: str = "p",
    assisted: bool = False,
    player_id: uuid.UUID | None = None,
) -> str:
    """Store a won game as a real win leaves it: its row, then the win recorded on the boards
    by the repository (scores row, counters, each player's best). ``finished_at`` must come
    after the last win of the same score, as the service ensures."""
    game_id = uuid.uuid4()
    with database.transaction() as session:
        session.execute(
            insert(games).values(
                id=game_id,
                player=player,
                player_id=player_id,
                token_hash="0" * 64,
                seed=None,
                salt="0" * 32,
                deck_commitment="0" * 64,
                state="{}",  # the leaderboard never reads a game's state
                version=1,
                assisted=assisted,
                status="won",
                end_reason=None,
                score=score,
                placements_count=40 - score,
                created_at=finished_at,
                updated_at=finished_at,
                finished_at=finished_at,
            )
        )
        record = ScoreRecord(game_id, player, score, -score, finished_at, assisted)
        leaderboards_store.record_win(session, record, name_skeleton(player))
    return str(game_id)


def read_all_pages(
    client: TestClient,
    limit: int,
    between_pages: Any = None,
    params: dict[str, Any] | None = None,
) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = []
    cursor = None
    board = params or {}
    for _ in range(1000):
        params = {"limit": limit, **board}
        if cursor:
            params["cursor"] = cursor
        response = client.get("/leaderboard", params=params)
        assert response.status_code == 200, response.text
        page = response.json()
        assert len(page["entries"]) <= limit
        entries.extend(page["entries"])
        cursor = page["next_cursor"]
        if cursor is None:
            return entries
        assert len(page["entries"]) == limit
        if between_pages:
            between_pages()
    raise AssertionError("the leaderboard never ended")


def order_key(entry: dict[str, Any]) -> tuple[int, str]:
    return (-entry["score"], entry["finished_at"])


def test_empty_leaderboard(client: TestClient) -> None:
    body = client.get("/leaderboard").json()
    assert body == {
        "entries": [],
        "next_cursor": None,
        "period": "all",
        "starts_on": None,
        "ends_on": None,
        "per_player": None,
        "assisted_left_out": 0,
        "held_for_review": 0,
    }
    # The page comes first and its window after it, in the order the README shows.
    assert list(body) == [
        "entries",
        "next_cursor",
        "period",
        "starts_on",
        "ends_on",
        "per_player",
        "assisted_left_out",
        "held_for_review",
    ]


@pytest.mark.slow  # every won vector, placement by placement: the slow tier
def test_won_conformance_games_play_identically_and_rank_by_score(
    client: TestClient, make_game: MakeGame
) -> None:
    expected = []
    for number, vector in enumerate(won_vectors()):
        game = make_game(vector["deck"], player=f"player{number}")
        final = play_vector(client, game, vector)  # checks every step and the end
        assert final["score"] == vector["final"]["score"]
        expected.append((vector["final"]["score"], number, f"player{number}", game.id))
    # Each win joins the board once its fair-play review has found it clean (each review
    # takes seconds; boarded() waits with a generous deadline).
    for _, _, _, game_id in expected:
        boarded(client, game_id)
    # Best score first; on ties, the game that finished first (here: played first).
    expected.sort(key=lambda item: (-item[0], item[1]))
    entries = read_all_pages(client, limit=7)
    assert [(e["score"], e["player"], e["game_id"]) for e in entries] == [
        (score, player, game_id) for score, _, player, game_id in expected
    ]
    assert [e["rank"] for e in entries] == list(range(1, len(expected) + 1))
    for entry in entries:
        game = client.get(f"/games/{entry['game_id']}").json()
        assert game["status"] == "won" and game["score"] == entry["score"]
        assert game["finished_at"] == entry["finished_at"]


def test_ties_go_to_the_earlier_finish(client: TestClient, database: Database) -> None:
    late = record_win(database, 10, T0 + timedelta(minutes=5), "late")
    early = record_win(database, 10, T0, "early")
    best = record_win(database, 12, T0 + timedelta(hours=1), "best")
    entries = client.get("/leaderboard").json()["entries"]
    assert [(e["rank"], e["game_id"]) for e in entries] == [(1, best), (2, early), (3, late)]


def test_an_entry_says_whether_an_account_played_it(client: TestClient, database: Database) -> None:
    """A guest's name has no player page: every board says which entries have one."""
    assert client.post("/players", json={"name": "ana"}).status_code == 201
    with database.transaction() as session:
        ana_id = session.execute(text("SELECT id FROM players WHERE name = 'ana'")).scalar_one()
    ana = record_win(database, 12, T0, "ana", player_id=uuid.UUID(str(ana_id)))
    guest = record_win(database, 10, T0 + timedelta(minutes=1), "guest")
    expected = [(ana, True), (guest, False)]
    for params in ({}, {"per_player": "best"}, {"period": "day", "date": "2026-01-01"}):
        entries = client.get("/leaderboard", params=params).json()["entries"]
        assert [(e["game_id"], e["registered"]) for e in entries] == expected, params
    for params in ({}, {"per_player": "best"}, {"period": "week", "date": "2026-01-01"}):
        around = client.get(f"/leaderboard/around/{guest}", params=params).json()
        assert [(e["game_id"], e["registered"]) for e in around["entries"]] == expected, params


def test_paging_neither_skips_nor_repeats_while_new_wins_arrive(
    client: TestClient, database: Database
) -> None:
    rng = random.Random(7)
    original = {
        record_win(database, rng.randint(0, 8), T0 + timedelta(seconds=i)) for i in range(40)
    }
    clock = iter(range(1000, 2000))

    def new_wins() -> None:
        # Better, equal and worse scores than anything paged so far, finishing "now".
        for score in (rng.randint(0, 8), 24, 0):
            record_win(database, score, T0 + timedelta(seconds=next(clock)), "newcomer")

    entries = read_all_pages(client, limit=6, between_pages=new_wins)
    ids = [entry["game_id"] for entry in entries]
    assert len(ids) == len(set(ids)), "an entry was repeated"
    assert original <= set(ids), "an entry that existed before paging started was skipped"
    assert [order_key(e) for e in entries] == sorted(order_key(e) for e in entries)
    assert [e["rank"] for e in entries] == list(range(1, len(entries) + 1))


@pytest.mark.parametrize("limit", [1, 20, 100])
def test_limit_caps_the_page(client: TestClient, database: Database, limit: int) -> None:
    for i in range(25):
        record_win(database, i % 5, T0 + timedelta(seconds=i))
    page = client.get("/leaderboard", params={"limit": limit}).json()
    assert len(page["entries"]) == min(limit, 25)
    assert (page["next_cursor"] is None) == (limit >= 25)


def test_default_limit_is_20(client: TestClient, database: Database) -> None:
    for i in range(21):
        record_win(database, 3, T0 + timedelta(seconds=i))
    page = client.get("/leaderboard").json()
    assert len(page["entries"]) == 20 and page["next_cursor"]


@pytest.mark.parametrize(
    "params",
    [
        {"limit": 0},
        {"limit": 101},
        {"limit": "ten"},
        {"cursor": "x" * 301},
    ],
)
def test_bad_limits_and_cursors_are_invalid_requests(
    client: TestClient, params: dict[str, Any]
) -> None:
    response = client.get("/leaderboard", params=params)
    assert response.status_code == 422
    problem = response.json()
    assert problem["code"] == "invalid_request"
    assert problem["errors"][0]["loc"][0] == "query"


def test_a_cached_page_is_served_until_the_scores_change(
    client: TestClient, database: Database
) -> None:
    record_win(database, 10, T0)
    first = client.get("/leaderboard").json()
    assert [entry["score"] for entry in first["entries"]] == [10]
    assert client.get("/leaderboard").json() == first  # served from the cache

    # A win written by anyone (here straight into the tables, as a bulk loader would) changes
    # the revision in its own transaction, so the very next request sees it.
    record_win(database, 12, T0 + timedelta(seconds=1))
    assert [entry["score"] for entry in client.get("/leaderboard").json()["entries"]] == [12, 10]

    with database.transaction() as session:
        session.execute(text("DELETE FROM scores WHERE score = 12"))
    assert [entry["score"] for entry in client.get("/leaderboard").json()["entries"]] == [10]


def test_every_statement_on_scores_bumps_the_revision_once_or_more(database: Database) -> None:
    def revision() -> int:
        with database.reading() as session:
            return int(session.scalar(text("SELECT revision FROM leaderboard_revision")) or 0)

    before = revision()
    record_win(database, 5, T0)
    after_insert = revision()
    assert after_insert > before
    with database.transaction() as session:
        session.execute(text("UPDATE scores SET player = 'q'"))
    assert revision() > after_insert


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _forged_payloads() -> list[Any]:
    """Cursor payloads a client might make up: values beyond the columns' ranges, wrong
    types, impossible timestamps, other listings, ranks of any size."""
    game = uuid.uuid4().hex
    when = "2026-01-01T00:00:00+00:00"
    board = ["all", None, False, False]  # the default listing
    return [
        [-(2**40), when, game, 1, board],  # beyond SMALLINT / SQLite's integer range
        [2**63, when, game, 1, board],
        [-(10**30), when, game, 1, board],
        [1, when, game, 1, board],  # a negative score
        [-25, when, game, 1, board],  # more than any game can score
        ["-5", when, game, 1, board],
        [-5.5, when, game, 1, board],
        [True, when, game, 1, board],
        [None, when, game, 1, board],
        [-5, "0001-01-01T00:00:00+00:00", game, 1, board],  # out of range for timestamptz
        [-5, "9999-12-31T23:59:59+14:00", game, 1, board],
        [-5, "2026-01-01T00:00:00", game, 1, board],  # no zone
        [-5, "yesterday", game, 1, board],
        [-5, 20260101, game, 1, board],
        [-5, when, "not-hex", 1, board],
        [-5, when, 12, 1, board],
        [-5, when, game, 10**40, board],  # a rank beyond any integer column
        [-5, when, game, -3, board],
        [-5, when, game, 0, board],
        [-5, when, game, "1", board],
        [-5, when, game, 1.5, board],
        [-5, when, game, 1, ["all", None, False, True]],  # other listings
        [-5, when, game, 1, ["day", "2026-01-01", False, False]],
        [-5, when, game, 1, ["all", None, True, False]],
        [-5, when, game, 1, ["all", "2026-01-01", False, False]],
        [-5, when, game, 1, False],
        [-5, when, game, 1, "no"],
        [-5, when, game, 1],
        [-5, when, game, 1, board, "extra"],
        {"sort_score": -5},
    ]


@pytest.mark.parametrize("signed", [False, True], ids=["unsigned", "signed-with-the-secret"])
def test_forged_cursors_are_422_invalid_cursor_never_500(
    client: TestClient, database: Database, signed: bool
) -> None:
    for score in range(25):
        record_win(database, score % 20, T0 + timedelta(minutes=score))
    secret: bytes = client.app.state.cursor_secret  # type: ignore[attr-defined]
    real = client.get("/leaderboard", params={"limit": 5}).json()["next_cursor"]
    payload, _, signature = real.partition(".")
    forged: list[str] = [
        "garbage",
        "W1siYSJdXQ",
        payload,  # unsigned
        f"{payload}.",
        f"{payload}.{signature[:-2]}",
        f"{payload[:-4]}AAAA.{signature}",  # the payload changed under the signature
        f".{signature}",
        "é.é",
    ]
    for data in _forged_payloads():
        raw = json.dumps(data).encode()
        # Signed with the real secret: the fields are checked all the same.
        mac = hmac.new(secret if signed else b"guess", raw, hashlib.sha256).digest()[:16]
        forged.append(f"{_b64(raw)}.{_b64(mac)}")
    assert len(forged) >= 30
    revision_before = client.get("/leaderboard", params={"limit": 5}).json()
    for cursor in forged:
        response = client.get("/leaderboard", params={"limit": 5, "cursor": cursor})
        assert response.status_code == 422, (cursor, response.text)
        assert response.json()["code"] == "invalid_cursor"
        assert response.headers["content-type"] == "application/problem+json"
    assert client.get("/leaderboard", params={"limit": 5}).json() == revision_before


def test_a_cursor_is_accepted_only_by_its_own_listing(
    client: TestClient, database: Database
) -> None:
    for score in range(6):
        record_win(database, score, T0 + timedelta(minutes=score))
    default = client.get("/leaderboard", params={"limit": 2}).json()["next_cursor"]
    answer = client.get(
        "/leaderboard", params={"limit": 2, "cursor": default, "include_assisted": "true"}
    )
    assert answer.status_code == 422 and answer.json()["code"] == "invalid_cursor"
    assert client.get("/leaderboard", params={"limit": 2, "cursor": default}).status_code == 200


def test_a_board_says_how_many_assisted_wins_it_leaves_out(
    client: TestClient, database: Database
) -> None:
    # ann: two wins with hints and one without; bob: only a win with hints.
    record_win(database, 20, T0, "ann", assisted=True)
    record_win(database, 10, T0 + timedelta(minutes=1), "ann")
    record_win(database, 21, T0 + timedelta(minutes=2), "bob", assisted=True)
    record_win(database, 5, T0 + timedelta(minutes=3), "ann", assisted=True)
    day = T0.date().isoformat()
    for params, entries, left_out in (
        ({}, 1, 3),
        ({"per_player": "best"}, 1, 1),  # bob is left out; ann is on it with her 10
        ({"period": "day", "date": day}, 1, 3),
        ({"period": "week", "date": day, "per_player": "best"}, 1, 1),
        ({"period": "day", "date": "2026-01-02"}, 0, 0),
        ({"include_assisted": "true"}, 4, None),
        ({"include_assisted": "true", "per_player": "best"}, 2, None),
    ):
        page = client.get("/leaderboard", params=params).json()
        assert (len(page["entries"]), page["assisted_left_out"]) == (entries, left_out), params
        if left_out is not None:  # what the switch brings: the board with them, its size more
            wider = client.get("/leaderboard", params={**params, "include_assisted": "true"})
            assert len(wider.json()["entries"]) == entries + left_out, params
