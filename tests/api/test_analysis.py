"""POST/GET /games/{id}/analysis: queued, computed once in the background, read when done."""

from __future__ import annotations

import json
import re
import time
import uuid
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Row, select, update

from api.analysis import result as analysis_result
from api.analysis import store as analysis_store
from api.analysis.tables import analyses
from api.app import create_app
from api.core.clock import now
from api.core.database import Database
from api.games.tables import games, placements
from api.settings import Settings
from engine import Game, replay
from engine.analysis import at_least_played, review
from engine.player.advice import Budget
from engine.solver import solve
from tests.conftest import CreatedGame, MakeGame

EFFORT = 200  # simulated placements per reviewed placement: quick, and still a real search
SOLVER_NODES = 20_000  # the hindsight search's effort: quick
DEADLINE = 180.0  # seconds: generous, the machine is shared
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9A])[CDHS](?![0-9A-Za-z])")


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(
        database_url=database_url,
        migrate_on_start=False,
        analysis_placements=EFFORT,
        analysis_poll_seconds=0.2,
        analysis_heartbeat_seconds=0.5,
        analysis_stale_seconds=3,
        analysis_solver_nodes=SOLVER_NODES,
    )


def finish(client: TestClient, game: CreatedGame) -> dict[str, Any]:
    """Play the game to its end (always the first legal placement); return it."""
    state: dict[str, Any] = client.get(f"/games/{game.id}").json()
    while state["status"] == "in_progress":
        placed = client.post(
            f"/games/{game.id}/placements", json=state["legal_placements"][0], headers=game.auth
        )
        assert placed.status_code == 201, placed.text
        state = placed.json()["game"]
    return state


def wait_until_done(
    client: TestClient, game_id: str
) -> tuple[httpx.Response, list[dict[str, Any]]]:
    """GET the analysis until it is no longer 202; the last answer and every 202 body seen."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        response = client.get(f"/games/{game_id}/analysis")
        if response.status_code != 202:
            return response, seen
        assert response.headers["retry-after"] == "1"
        assert response.headers["location"] == f"/games/{game_id}/analysis"
        seen.append(response.json())
        time.sleep(0.1)
    pytest.fail(f"the analysis of {game_id} was not done within {DEADLINE} s")


def stored(database: Database, game_id: str) -> Row[Any] | None:
    """The job's whole row (its claim and attempts included: the runner's, not a reader's)."""
    with database.reading() as connection:
        return connection.execute(
            select(analyses).where(analyses.c.game_id == uuid.UUID(game_id))
        ).first()


def deck_of(database: Database, game_id: str) -> list[str]:
    with database.transaction() as session:
        row = session.execute(select(games).where(games.c.id == uuid.UUID(game_id))).one()
        return [card.code for card in Game.from_dict(json.loads(row.state)).deck]


def test_an_analysis_is_accepted_then_computed_once_and_served(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    final = finish(client, game)
    asked = client.post(f"/games/{game.id}/analysis")
    assert asked.status_code == 202, asked.text
    assert asked.headers["location"] == f"/games/{game.id}/analysis"
    body = asked.json()
    assert body["state"] in ("queued", "running") and body["result"] is None
    assert body["progress"] == {"reviewed": 0, "total": final["placements_count"]} or (
        body["state"] == "running"
    )
    again = client.post(f"/games/{game.id}/analysis")  # idempotent: the same job
    assert again.status_code in (200, 202)
    assert again.json()["requested_at"] == body["requested_at"]

    done, progress = wait_until_done(client, game.id)
    assert done.status_code == 200, done.text
    assert done.headers["location"] == f"/games/{game.id}/analysis"
    reviewed = [p["progress"]["reviewed"] for p in progress]
    assert reviewed == sorted(reviewed) or len({p["started_at"] for p in progress}) > 1
    assert all(p["progress"]["reviewed"] <= p["progress"]["total"] for p in progress)
    analysis = done.json()
    assert analysis["state"] == "done" and analysis["error"] is None
    assert analysis["progress"] == {
        "reviewed": final["placements_count"],
        "total": final["placements_count"],
    }
    result = analysis["result"]
    assert result["status"] == final["status"] and result["score"] == final["score"]
    assert result["effort"] == EFFORT
    assert len(result["placements"]) == final["placements_count"]
    assert sum(result["labels"].values()) == final["placements_count"]

    # The stored review is the engine's review of the game, from the public views.
    history = client.get(f"/games/{game.id}/placements").json()["placements"]
    expected = review(
        deck_of(database, game.id),
        [(p["row"], p["col"]) for p in history],
        seed=uuid.UUID(game.id).int & 0xFFFFFFFF,
        budget=Budget(placements=EFFORT),
    )
    assert result["accuracy"] == expected.accuracy
    for got, want in zip(result["placements"], expected.placements, strict=True):
        assert got["label"] == want.label.value
        assert got["win_probability_loss"] == want.win_probability_loss
        assert got["expected_score_loss"] == want.expected_score_loss
        assert got["played"]["placement"] == {
            "row": want.played.position.row,
            "col": want.played.position.col,
        }
        assert got["best"]["placement"] == {
            "row": want.advised.position.row,
            "col": want.advised.position.col,
        }
        assert got["card"]["code"] == want.card.code

    # The deal's hindsight optimum: the engine's, and its line replays to its score.
    deck = deck_of(database, game.id)
    optimum = at_least_played(
        solve(deck, nodes=SOLVER_NODES), [(p["row"], p["col"]) for p in history], final["score"]
    )
    assert result["optimum"] == {
        "score": optimum.score,
        "proven": optimum.proven,
        "upper_bound": optimum.upper_bound,
        "line": [{"row": p.row, "col": p.col} for p in optimum.line],
    }
    if optimum.score is not None:
        assert replay(deck, [(p["row"], p["col"]) for p in result["optimum"]["line"]]).score == (
            optimum.score
        )
        assert optimum.upper_bound is None or optimum.score <= optimum.upper_bound
    if optimum.proven and final["status"] == "won":
        assert optimum.score is not None and optimum.score >= final["score"]

    # Asking again answers the stored analysis at once and computes nothing.
    record = stored(database, game.id)
    assert record is not None and record.attempts == 1
    repeat = client.post(f"/games/{game.id}/analysis")
    assert repeat.status_code == 200
    assert repeat.json() == analysis
    assert stored(database, game.id) == record


def test_an_analysis_nobody_asked_for_is_not_found(client: TestClient, make_game: MakeGame) -> None:
    game = make_game()
    finish(client, game)
    missing = client.get(f"/games/{game.id}/analysis")
    assert missing.status_code == 404
    assert missing.json()["code"] == "analysis_not_found"
    for method in ("GET", "POST"):
        unknown = client.request(method, f"/games/{uuid.uuid4()}/analysis")
        assert unknown.status_code == 404 and unknown.json()["code"] == "game_not_found"
        malformed = client.request(method, "/games/not-a-game/analysis")
        assert malformed.status_code == 404 and malformed.json()["code"] == "game_not_found"


def test_an_analysis_reveals_nothing_about_a_game_still_in_progress(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    for _ in range(5):
        state = client.get(f"/games/{game.id}").json()
        client.post(
            f"/games/{game.id}/placements", json=state["legal_placements"][-1], headers=game.auth
        )
    state = client.get(f"/games/{game.id}").json()
    assert state["status"] == "in_progress"
    deck = deck_of(database, game.id)
    unseen = set(deck[state["placements_count"] + 1 :])
    answers = [
        client.post(f"/games/{game.id}/analysis"),
        client.get(f"/games/{game.id}/analysis"),
        client.post(f"/games/{game.id}/analysis", headers=game.auth),  # even for its player
        client.get(f"/games/{game.id}/analysis", headers=game.auth),
    ]
    for answer in answers:
        assert answer.status_code == 409
        assert answer.headers["content-type"] == "application/problem+json"
        problem = answer.json()
        assert problem["code"] == "game_in_progress"
        assert set(problem) <= {
            "type",
            "title",
            "status",
            "detail",
            "code",
            "instance",
            "request_id",
        }
        text = answer.text + json.dumps(dict(answer.headers))
        assert CARD_CODE.search(text) is None, text
        assert not any(card in text for card in unseen)
    assert stored(database, game.id) is None  # nothing queued, nothing computed
    # Once it ends, the same game may be analysed.
    finish(client, game)
    assert client.post(f"/games/{game.id}/analysis").status_code == 202


def test_a_job_whose_claimer_stopped_heartbeating_is_taken_over(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    """A claim made long ago by a process that is gone: this app's runner claims the job
    again once the heartbeat is stale, and stores the result under its own name."""
    game = make_game()
    final = finish(client, game)
    game_id = uuid.UUID(game.id)
    long_ago = now() - timedelta(minutes=10)
    with database.transaction() as session:
        assert analysis_store.insert_analysis_if_absent(session, game_id, 1, long_ago)
        dead = analysis_store.claim_analysis(session, "gone:1:dead", long_ago, long_ago, 3)
        assert dead == game_id
    done, _ = wait_until_done(client, game.id)
    assert done.status_code == 200 and done.json()["state"] == "done"
    assert len(done.json()["result"]["placements"]) == final["placements_count"]
    record = stored(database, game.id)
    assert record is not None
    assert record.attempts == 2
    assert record.claimed_by is not None and record.claimed_by != "gone:1:dead"
    # The dead claimer can no longer store anything.
    with database.transaction() as session:
        assert not analysis_store.renew_analysis(session, game_id, "gone:1:dead", 3, now())
        assert not analysis_store.finish_analysis(
            session, game_id, "gone:1:dead", now(), result="{}", reviewed=0
        )


def test_a_job_that_killed_its_claimers_fails_and_a_new_request_queues_it_again(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    game = make_game()
    finish(client, game)
    game_id = uuid.UUID(game.id)
    long_ago = now() - timedelta(minutes=10)
    with database.transaction() as session:
        assert analysis_store.insert_analysis_if_absent(session, game_id, 1, long_ago)
        for attempt in range(3):  # the default FOURSQUARE_ANALYSIS_MAX_ATTEMPTS
            claimed = analysis_store.claim_analysis(
                session, f"gone:{attempt}:dead", long_ago, long_ago + timedelta(seconds=1), 3
            )
            assert claimed == game_id
            if attempt < 2:
                assert analysis_store.release_analysis(session, game_id, f"gone:{attempt}:dead")
    failed, _ = wait_until_done(client, game.id)
    assert failed.status_code == 200
    assert failed.json()["state"] == "failed" and failed.json()["result"] is None
    assert "stopped 3 times" in failed.json()["error"]
    retried = client.post(f"/games/{game.id}/analysis")
    assert retried.status_code == 202 and retried.json()["state"] in ("queued", "running")
    done, _ = wait_until_done(client, game.id)
    assert done.status_code == 200 and done.json()["state"] == "done"


def test_a_process_that_does_not_compute_queues_and_another_one_computes(
    settings: Settings, make_game: MakeGame, client: TestClient, database: Database
) -> None:
    """FOURSQUARE_ANALYSIS_WORKER=false: the process answers 202 and leaves the job queued;
    a computing process on the same database claims and finishes it."""
    game = make_game()
    finish(client, game)
    serving_only = create_app(settings.model_copy(update={"analysis_worker": False}))
    with TestClient(serving_only, raise_server_exceptions=False) as front:
        assert serving_only.state.analysis_runner is None
        asked = front.post(f"/games/{game.id}/analysis")
        assert asked.status_code == 202
        done, _ = wait_until_done(front, game.id)  # computed by the other app's runner
        assert done.status_code == 200 and done.json()["state"] == "done"
    record = stored(database, game.id)
    assert record is not None and record.attempts == 1
    assert record.claimed_by == client.app.state.analysis_runner.identity  # type: ignore[attr-defined]


def test_an_analysis_that_cannot_be_computed_fails_once_and_says_why(
    client: TestClient, make_game: MakeGame, database: Database
) -> None:
    """A history the rules refuse (here made by hand in the database): the analysis is
    `failed` with the error's kind, after one attempt, and is not retried by itself."""
    game = make_game()
    finish(client, game)
    with database.transaction() as session:
        session.execute(
            update(placements)
            .where(placements.c.game_id == uuid.UUID(game.id), placements.c.number == 2)
            .values(row=3, col=3)
        )
    assert client.post(f"/games/{game.id}/analysis").status_code == 202
    failed, _ = wait_until_done(client, game.id)
    assert failed.status_code == 200
    body = failed.json()
    assert body["state"] == "failed" and body["result"] is None
    assert body["error"] == "NotAdjacent: the analysis could not be computed"
    record = stored(database, game.id)
    assert record is not None and record.attempts == 1


def test_a_result_stored_in_either_format_is_shown_the_same() -> None:
    """Format 2 (compact, written now) and format 1 (the response's own shape, written by
    earlier releases) read into the same response."""
    game = Game.from_seed(3)
    positions = []
    while not game.is_over:
        cell = game.legal_placements()[0]
        game.place((cell.row, cell.col))
        positions.append((cell.row, cell.col))
    deck = [card.code for card in game.deck]
    summary = review(deck, positions, budget=Budget(placements=50))
    optimum = at_least_played(solve(deck, nodes=2_000), positions, game.score)
    text = analysis_result.dumps(game.status.value, game.score, summary, 50, optimum)
    assert json.loads(text)["format"] == 2 and "placements" not in json.loads(text)
    shown = analysis_result.loads(text)
    assert [placement.card.code for placement in shown.placements] == deck[: len(positions)]
    assert shown.optimum is not None and len(shown.optimum.line) == len(optimum.line)
    assert analysis_result.loads(shown.model_dump_json()) == shown
    without_optimum = shown.model_dump(mode="json", exclude={"optimum"})
    assert analysis_result.loads(json.dumps(without_optimum)).optimum is None
