"""Waiting for the fair-play review: a won game without hints joins the public boards (and
the news of wins) only once its review has found it clean (api.fairplay), a few seconds
after it ends. Tests of what the boards hold wait for it as a client would."""

from __future__ import annotations

import time
from typing import Any, Protocol, cast

from sqlalchemy import Table, update
from sqlalchemy.orm import Session

from api.fairplay.tables import FairPlayReviewRow
from api.games import GameFacts, GameService
from api.leaderboards import board_reviewed_win

DEADLINE = 180.0  # seconds: a review is ~2-4 s of CPU, and the machine is shared


class Reader(Protocol):
    def get(self, url: str) -> Any: ...


def boarded(client: Reader, game_id: str, deadline: float = DEADLINE) -> dict[str, Any]:
    """The game once the review has put it on the boards (or once it is known to need none:
    a lost or assisted game); fails if the review held it."""
    until = time.monotonic() + deadline
    while True:
        game: dict[str, Any] = client.get(f"/games/{game_id}").json()
        state = (game.get("fair_play") or {}).get("state")
        if state in (None, "clean", "cleared"):
            return game
        assert state == "pending", f"the fair-play review held game {game_id}: {state}"
        assert time.monotonic() < until, f"game {game_id} still pending after {deadline} s"
        time.sleep(0.1)


def record_clean_review(session: Session, facts: GameFacts) -> None:
    """Store a clean verdict on a win whose review was just queued (in ``session``), as the
    review runner would, and put the win on the boards: for the tests that write won games
    straight into the database, with no deal a review could replay."""
    reviews = cast(Table, FairPlayReviewRow.__table__)
    session.execute(
        update(reviews)
        .where(reviews.c.game_id == facts.game_id)
        .values(state="done", verdict="clean", evidence="{}", reviewed_at=facts.at)
    )
    GameService.set_review(session, [facts.game_id], "clean", ("pending",))
    board_reviewed_win(session, facts)
