"""Waiting for the fair-play review: a won game without hints joins the public boards (and
the news of wins) only once its review has found it clean (api.fairplay), a few seconds
after it ends. Tests of what the boards hold wait for it as a client would."""

from __future__ import annotations

import time
import uuid
from typing import Any, Protocol

from sqlalchemy import update
from sqlalchemy.orm import Session

from api.fairplay import store as fairplay_store
from api.fairplay.tables import fairplay_reviews as reviews
from api.games import GameFacts, GameService
from api.leaderboards import board_reviewed_win

DEADLINE = 180.0  # seconds: a review is ~2-4 s of CPU, and the machine is shared


# The suite's operator credential (tests/conftest.py sets it for every app and server).
SUITE_OPERATOR = {"Authorization": "Bearer " + "s" * 40}


class Client(Protocol):
    def get(self, url: str, *, headers: Any = None) -> Any: ...
    def post(self, url: str, *, json: Any = None, headers: Any = None) -> Any: ...


def reviewed(
    client: Client, game_id: str, headers: Any = None, deadline: float = DEADLINE
) -> dict[str, Any]:
    """The game once its fair-play review is done (at once for a game that needs none: a lost
    or assisted one). ``headers``: a private game's credential (a daily challenge's)."""
    until = time.monotonic() + deadline
    while True:
        read = client.get(f"/games/{game_id}", headers=headers)
        assert read.status_code == 200, read.text
        game: dict[str, Any] = read.json()
        if (game.get("fair_play") or {}).get("status") != "pending":
            return game
        assert time.monotonic() < until, f"game {game_id} still pending after {deadline} s"
        time.sleep(0.1)


def boarded(
    client: Client, game_id: str, headers: Any = None, *, clear: bool = False
) -> dict[str, Any]:
    """The game once the review has put it on the boards. A test whose wins are the computer
    player's own lines passes ``clear``: the suite's operator clears what the review held, as
    a moderator would; otherwise a held game fails the test."""
    game = reviewed(client, game_id, headers)
    state = (game.get("fair_play") or {}).get("status")
    if state == "flagged" and clear:
        answer = client.post(
            f"/moderation/games/{game_id}", json={"action": "clear"}, headers=SUITE_OPERATOR
        )
        assert answer.status_code == 200, answer.text
        game = client.get(f"/games/{game_id}", headers=headers).json()
        state = game["fair_play"]["status"]
    assert state in (None, "clean", "cleared"), f"the review held game {game_id}: {state}"
    return game


def record_clean_review(session: Session, facts: GameFacts) -> None:
    """Store a clean verdict on a win whose review was just queued (in ``session``), as the
    review runner would, and put the win on the boards: for the tests that write won games
    straight into the database, with no deal a review could replay."""
    session.execute(
        update(reviews)
        .where(reviews.c.game_id == facts.game_id)
        .values(state="done", verdict="clean", evidence="{}", reviewed_at=facts.at)
    )
    GameService.set_review(session, [facts.game_id], "clean", ("pending",))
    board_reviewed_win(session, facts)


def board_queued_win(session: Session, game_id: uuid.UUID) -> None:
    """:func:`record_clean_review` for a win just played in ``session`` (its review queued
    there), for the tests that play games with no app, and so no review runner, about."""
    review = fairplay_store.get(session, game_id)
    assert review is not None, f"game {game_id} has no review queued: not a win without hints"
    facts = GameFacts(
        game_id=review.game_id,
        player=review.player,
        player_id=review.player_id,
        challenge_date=review.challenge_date,
        assisted=False,
        placements=review.placements,
        status="won",
        score=review.score,
        at=review.finished_at,
    )
    record_clean_review(session, facts)
