"""What the database must hold, whatever happened over HTTP: checked row by row.

Every game's stored state is the replay of its stored placements on its stored deck, its
version counts its placements, placement numbers run 1..n with no gap and no repeat, each
placement's card, flips and status are the engine's, every won game is either on the boards
(one score row) or held off them by the fair-play review (a ``leaderboard_held`` row, its
review pending or flagged), never both and never neither, an assisted win is on the boards,
no other game has either row, the boards' counters, ordinals and each player's bests are what a
recount of the score rows gives, and every response kept for an ``Idempotency-Key`` names
what is stored.
"""

from __future__ import annotations

import json
import uuid
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Row, create_engine, func, select
from sqlalchemy.orm import Session

from api.core.names import name_skeleton
from api.core.secrets import deck_commitment
from api.games.tables import games, placements
from api.idempotency.tables import idempotency_keys
from api.leaderboards.store import ALL_TIME, week_of
from api.leaderboards.tables import (
    leaderboard_bests,
    leaderboard_days,
    leaderboard_held,
    leaderboard_totals,
    scores,
)
from engine import Game, Status


@dataclass(frozen=True)
class StoredPlacement:
    number: int
    row: int
    col: int
    card: str


@dataclass(frozen=True)
class StoredGame:
    id: str
    status: str
    score: int | None
    assisted: bool
    review: str | None  # the fair-play review's word (games.review)
    version: int
    deck: tuple[str, ...]
    seed: str | None
    salt: str
    placements: tuple[StoredPlacement, ...]

    def placement(self, number: int) -> StoredPlacement | None:
        if 1 <= number <= len(self.placements):
            return self.placements[number - 1]
        return None


@dataclass
class DatabaseReport:
    games: dict[str, StoredGame] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    held: set[str] = field(default_factory=set)  # wins the fair-play review holds off the boards
    pending_keys: int = 0  # claimed, with no response stored (a crashed request)
    completed_keys: int = 0

    @property
    def placements(self) -> int:
        return sum(len(game.placements) for game in self.games.values())

    @property
    def by_status(self) -> dict[str, int]:
        return dict(Counter(game.status for game in self.games.values()))


def _verify_game(row: Row[Any], placements: list[Row[Any]]) -> StoredGame:
    name = f"game {row.id}"
    stored = Game.from_dict(json.loads(row.state))  # also checks the state obeys the rules
    deck = tuple(card.code for card in stored.deck)
    numbers = [placement.number for placement in placements]
    assert numbers == list(range(1, len(placements) + 1)), f"{name}: numbers {numbers}"
    # Every placement bumps the version once, and so does the first hint (``assisted``).
    bumps = len(placements) + (1 if getattr(row, "assisted", False) else 0)
    assert row.version == bumps + 1, f"{name}: version {row.version}, {numbers}"
    assert row.placements_count == len(placements), name
    assert row.deck_commitment == deck_commitment(deck, row.salt), f"{name}: commitment"

    replayed = Game(deck)
    for placement in placements:
        where = f"{name} placement {placement.number}"
        assert placement.card == deck[placement.number - 1], where
        result = replayed.place((placement.row, placement.col))
        flipped = [
            {"row": flip.position.row, "col": flip.position.col, "face_up": flip.face_up}
            for flip in result.flipped
        ]
        assert placement.flipped == flipped, f"{where}: flipped {placement.flipped} != {flipped}"
        assert placement.status_after == result.status.value, where
    assert replayed == stored, f"{name}: the stored state is not the replay of its placements"
    assert row.status == stored.status.value, name
    assert row.end_reason == (stored.end_reason.value if stored.end_reason else None), name
    assert row.score == stored.score, name
    assert (row.finished_at is not None) == (stored.status is not Status.IN_PROGRESS), name
    return StoredGame(
        id=str(row.id),
        status=row.status,
        score=row.score,
        assisted=bool(getattr(row, "assisted", False)),
        review=row.review,
        version=row.version,
        deck=deck,
        seed=row.seed,
        salt=row.salt,
        placements=tuple(StoredPlacement(p.number, p.row, p.col, p.card) for p in placements),
    )


def _verify_stored_response(row: Row[Any], report: DatabaseReport) -> None:
    """A kept 201 names a stored game (creation: sealed, its token never in clear) or a
    stored placement (placement). The answers of the players' and races' routes hold no game
    of their own (a sealed one cannot be read without its key: it is not JSON)."""
    where = f"idempotency key {row.scope}/{row.key_hash}"
    if row.response_sealed:
        try:
            json.loads(row.response_body or "")
        except json.JSONDecodeError:
            pass
        else:
            raise AssertionError(f"{where}: a sealed answer kept as its JSON")
    if row.status_code != 201 or not row.scope.startswith("game"):
        return
    if row.scope == "games":
        assert row.response_sealed, f"{where}: a new game's token kept in clear"
        location = (row.response_headers or {})["Location"]
        game_id = location.removeprefix("/games/")
        assert game_id in report.games, f"{where}: no game {game_id}"
        return
    body: dict[str, Any] = json.loads(row.response_body or "{}")
    game = report.games.get(str(uuid.UUID(row.scope.removeprefix("game:"))))
    assert game is not None, f"{where}: no such game"
    placement = body["placement"]
    stored = game.placement(placement["number"])
    assert stored == StoredPlacement(
        placement["number"], placement["row"], placement["col"], placement["card"]["code"]
    ), f"{where}: kept {placement} but the game holds {stored}"


# The fair-play review's words (games.review, api.fairplay) of a win held off the boards:
# pending its review, flagged by it (``confirmed`` by a moderator), or of a marked account
# (``held``); and of a win on them: none (assisted, or won before the review), clean, cleared.
HELD_REVIEWS = ("pending", "flagged", "confirmed", "held")
BOARDED_REVIEWS = (None, "clean", "cleared")


def verify_database(url: str) -> DatabaseReport:
    """Check every stored invariant (AssertionError names the game); return what is stored."""
    engine = create_engine(url)
    report = DatabaseReport()
    try:
        with Session(engine) as session:
            duplicates = session.execute(
                select(placements.c.game_id, placements.c.number)
                .group_by(placements.c.game_id, placements.c.number)
                .having(func.count() > 1)
            ).all()
            assert not duplicates, f"placement numbers stored twice: {duplicates}"
            placed: dict[uuid.UUID, list[Row[Any]]] = {}
            for placement in session.execute(
                select(placements).order_by(placements.c.game_id, placements.c.number)
            ):
                placed.setdefault(placement.game_id, []).append(placement)
            rows = session.execute(select(games)).all()
            assert set(placed) <= {row.id for row in rows}, "placements of no game"
            for row in rows:
                game = _verify_game(row, placed.get(row.id, []))
                report.games[game.id] = game
            for score in session.execute(select(scores)):
                scored = report.games.get(str(score.game_id))
                assert scored is not None, f"score of no game {score.game_id}"
                assert scored.status == Status.WON.value, f"{scored.status} {scored.id} scored"
                assert score.score == scored.score == -score.sort_score, f"score of {scored.id}"
                report.scores[scored.id] = score.score
            for held in session.execute(select(leaderboard_held)):
                kept = report.games.get(str(held.game_id))
                assert kept is not None, f"held win of no game {held.game_id}"
                assert kept.status == Status.WON.value, f"{kept.status} {kept.id} held"
                assert not kept.assisted, f"assisted win {kept.id} held for review"
                assert kept.review in HELD_REVIEWS, f"{kept.id} held, its review {kept.review}"
                report.held.add(kept.id)
            won = {game.id for game in report.games.values() if game.status == Status.WON.value}
            both = report.held & report.scores.keys()
            assert not both, f"won games both on the boards and held: {both}"
            neither = won - report.scores.keys() - report.held
            assert not neither, f"won games neither on the boards nor held: {neither}"
            for boarded in report.scores:
                review = report.games[boarded].review
                assert review in BOARDED_REVIEWS, f"{boarded} on the boards, its review {review}"
            verify_boards(session)
            for key_row in session.execute(select(idempotency_keys)):
                if key_row.status_code is None:
                    report.pending_keys += 1
                    continue
                report.completed_keys += 1
                _verify_stored_response(key_row, report)
    finally:
        engine.dispose()
    return report


def verify_boards(session: Session) -> None:
    """What the boards keep of the wins is a recount of ``scores``: wins of one score finish
    strictly one after another and are numbered 1..n in that order (overall and within their
    day, with and without assisted games), the counts by score and by day are those numbers'
    totals, and each player's best on every board is the first of their best-scored wins."""
    won = session.execute(select(scores).order_by(scores.c.finished_at, scores.c.game_id)).all()
    wins: Counter[int] = Counter()
    plain: Counter[int] = Counter()
    by_day: Counter[tuple[date, int]] = Counter()
    plain_by_day: Counter[tuple[date, int]] = Counter()
    last: dict[int, datetime] = {}
    bests: dict[tuple[str, date, bool, str], Row[Any]] = {}
    for row in won:
        day = row.finished_at.date()
        assert (row.day, row.week) == (day, day - timedelta(days=day.weekday())), row.game_id
        assert row.player_key == name_skeleton(row.player), row.game_id
        assert row.score not in last or last[row.score] < row.finished_at, (
            f"two wins of score {row.score} finished at once: {row.game_id}"
        )
        last[row.score] = row.finished_at
        wins[row.score] += 1
        by_day[day, row.score] += 1
        assert (row.ordinal, row.day_ordinal) == (wins[row.score], by_day[day, row.score])
        if row.assisted:
            assert row.ordinal_unassisted is None and row.day_ordinal_unassisted is None
        else:
            plain[row.score] += 1
            plain_by_day[day, row.score] += 1
            assert (row.ordinal_unassisted, row.day_ordinal_unassisted) == (
                plain[row.score],
                plain_by_day[day, row.score],
            ), row.game_id
        for board, starts_on in (("all", ALL_TIME), ("day", day), ("week", week_of(day))):
            for with_assisted in (True,) if row.assisted else (True, False):
                slot = (board, starts_on, with_assisted, row.player_key)
                if slot not in bests or row.score > bests[slot].score:
                    bests[slot] = row
    totals = {
        row.score: (row.wins, row.wins_unassisted, row.last_finished_at)
        for row in session.execute(select(leaderboard_totals))
    }
    assert set(totals) == set(range(25))
    for score, (counted, counted_plain, latest) in totals.items():
        assert (counted, counted_plain) == (wins[score], plain[score]), f"totals of {score}"
        assert latest == last.get(score), f"last win of {score}"
    days = {
        (row.day, row.score): (row.wins, row.wins_unassisted, row.week)
        for row in session.execute(select(leaderboard_days))
    }
    assert days == {
        key: (count, plain_by_day[key], week_of(key[0])) for key, count in by_day.items()
    }
    stored = {
        (row.board, row.starts_on, row.with_assisted, row.player_key): row.game_id
        for row in session.execute(select(leaderboard_bests))
    }
    assert stored == {slot: row.game_id for slot, row in bests.items()}
