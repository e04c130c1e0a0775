"""Fair play: every won game without hints is reviewed (:mod:`engine.fairplay`) before it
joins a public board, and the moderators' decisions on what the review held.

The lifecycle of such a win (``games.review``, the word its player reads):

* it ends ``pending``: held off every board (:func:`api.leaderboards.board_reviewed_win`
  has not run; the boards' captions count it) and its review queued in the same
  transaction (:func:`subscribe`); a race's win when its race reveals it;
* the runner (:mod:`api.fairplay.runner`) computes the review and :func:`apply_verdict`
  stores it: ``clean`` goes on the boards and its news goes out; ``flagged`` stays off;
* an account with :attr:`FairPlaySettings.fairplay_mark_after` flagged wins that no moderator
  cleared is **marked**: all its won games leave the boards (``held``), and its page says so.
  Why a count and not one flag: one flag can be a strong player's short game that happened
  to follow the computer's choices; the rule wrongly flags at most 1 % of the wins of the
  players that do not see the advice (docs/fairplay.md), so three such flags on one account
  are very unlikely to be chance. Guests have no account: their games are judged one by one.
* a moderator (:class:`FairPlayService`) clears or confirms a flagged game or a marked
  account; every decision is stored with who made it and when.

Why every such win is reviewed, not only those that would enter a board's first 100: a
day's board starts empty, so nearly every win enters the first 100 of its day, and a win
below the first 100 today rises as flagged games leave; reviewing them all is simpler to
trust than a threshold that moves.
"""

from __future__ import annotations

import hmac
import uuid
from collections.abc import Callable
from dataclasses import asdict
from typing import Any, Literal

from sqlalchemy import Row
from sqlalchemy.orm import Session

from api import events, leaderboards
from api.accounts import find_player, get_player
from api.core.clock import now
from api.core.database import Database, Executor, after_commit
from api.fairplay import store
from api.fairplay.errors import NotAModerator, NotFlagged, NotMarked, NotReviewed
from api.fairplay.settings import FairPlaySettings
from api.fairplay.store import Job
from api.games import GameFacts, GameHooks, GameService, WonGame, parse_game_id
from engine.fairplay import Evidence

Action = Literal["clear", "confirm"]


def subscribe(hooks: GameHooks) -> None:
    """Queue the review of each won game without hints in the transaction that ends it (a
    race's when its race reveals it)."""
    hooks.subscribe("review", ended=_queue_ended, revealed=_queue_revealed)


def _queue_ended(session: Session, game: GameFacts) -> None:
    if game.reviewed and not game.sealed:
        _queue(session, game)


def _queue_revealed(session: Session, game: GameFacts) -> None:
    if game.reviewed:
        _queue(session, game)


# This process's review runners (:mod:`api.fairplay.runner`), woken when a win is queued here
# so that its review starts at once rather than at the next poll; the other processes' find
# it at theirs. Process-wide, as the hooks that queue are.
_LOCAL_RUNNERS: set[Callable[[], None]] = set()


def listen(wake: Callable[[], None]) -> Callable[[], None]:
    """Call ``wake`` (from any thread) after each commit that queued a review in this
    process; returns what stops it."""
    _LOCAL_RUNNERS.add(wake)
    return lambda: _LOCAL_RUNNERS.discard(wake)


def _wake_local() -> None:
    for wake in list(_LOCAL_RUNNERS):
        wake()


def _queue(session: Session, game: GameFacts) -> None:
    after_commit(session, _wake_local)
    assert game.score is not None
    job = Job(
        game_id=game.game_id,
        player=game.player,
        player_id=game.player_id,
        score=game.score,
        placements=game.placements,
        finished_at=game.at,
        challenge_date=game.challenge_date,
    )
    store.queue(session, job, now())


def evidence_dict(evidence: Evidence) -> dict[str, Any]:
    """The review's evidence as stored (JSON) and shown to moderators."""
    return {
        "verdict": evidence.verdict.value,
        "reasons": list(evidence.reasons),
        "decisions": evidence.decisions,
        "agreement": evidence.agreement,
        "matches": evidence.matches,
        "mean_loss": evidence.mean_loss,
        "timing": asdict(evidence.timing) if evidence.timing else None,
        "rule": asdict(evidence.rule),
    }


def _facts(job: Job) -> GameFacts:
    return GameFacts(
        game_id=job.game_id,
        player=job.player,
        player_id=job.player_id,
        challenge_date=job.challenge_date,
        assisted=False,
        placements=job.placements,
        status="won",
        score=job.score,
        at=job.finished_at,
    )


def _won_facts(game: WonGame) -> GameFacts:
    return GameFacts(
        game_id=game.id,
        player=game.player,
        player_id=game.player_id,
        challenge_date=game.challenge_date,
        assisted=game.assisted,
        placements=game.placements_count,
        status="won",
        score=game.score,
        at=game.finished_at,
    )


def _is_marked(account: Row[Any] | None) -> bool:
    return account is not None and account.state in ("marked", "confirmed")


def apply_verdict(
    session: Session,
    job: Job,
    verdict: str,
    evidence: str,
    claimer: str,
    settings: FairPlaySettings,
) -> bool:
    """Store a review's verdict and do what it says, in one transaction; False, and nothing
    done, if another process took the job over."""
    at = now()
    if not store.finish(session, job.game_id, claimer, at, verdict, evidence):
        return False
    account = store.account(session, job.player_id) if job.player_id else None
    if _is_marked(account):
        GameService.set_review(session, [job.game_id], "held", ("pending",))
        return True
    if verdict == "clean":
        _board(session, job, "clean", ("pending",))
        return True
    GameService.set_review(session, [job.game_id], "flagged", ("pending",))
    if job.player_id is not None:
        since = account.decided_at if account is not None else None
        flagged = store.flagged_since(session, job.player_id, since)
        if flagged >= settings.fairplay_mark_after:
            _mark(session, job.player_id, flagged)
    return True


def _board(session: Session, job: Job, word: str, only_from: tuple[str, ...]) -> None:
    if GameService.set_review(session, [job.game_id], word, only_from):
        facts = _facts(job)
        leaderboards.board_reviewed_win(session, facts)
        events.win_boarded(session, facts)


def _mark(session: Session, player_id: uuid.UUID, flagged: int) -> None:
    """Mark an account: every won game of it on a board leaves them."""
    store.mark(session, player_id, flagged, now())
    boarded = [
        game
        for game in GameService.won_games_of(session, player_id)
        if game.review in (None, "clean", "cleared")
    ]
    GameService.set_review(session, [game.id for game in boarded], "held", ("", "clean", "cleared"))
    leaderboards.take_off_boards(session, [(game.id, game.finished_at) for game in boarded])


def _word_of(review: Row[Any] | None) -> str | None:
    """A game's own word, its account's mark aside."""
    if review is None:
        return None  # a win from before the review, or an assisted one
    if review.state != "done":
        return "pending"
    word: str | None = review.decision or review.verdict
    return word


def _unmark(session: Session, player_id: uuid.UUID) -> None:
    """Every game of a cleared account back to its own word; those that are on the boards
    by it go back on them."""
    held = [g for g in GameService.won_games_of(session, player_id) if g.review == "held"]
    reviews = store.of_games(session, [game.id for game in held])
    back = []
    for game in held:
        word = _word_of(reviews.get(game.id))
        GameService.set_review(session, [game.id], word, ("held",))
        if word in (None, "clean", "cleared"):
            back.append(_won_facts(game))
    leaderboards.put_back_on_boards(session, back)


def is_marked(session: Executor, player_id: uuid.UUID) -> bool:
    """Whether the fair-play review marked an account (and no moderator cleared it): its
    public page says so."""
    return _is_marked(store.account(session, player_id))


# ---------------------------------------------------------------- the moderators


class Moderators:
    """The operator credentials (``FOURSQUARE_OPERATOR_KEYS``: ``name:key`` pairs): the name
    a key belongs to is stored with each decision it makes."""

    def __init__(self, setting: str | None) -> None:
        self.keys: dict[str, str] = {}
        for pair in (setting or "").split(","):
            if pair.strip():
                name, _, key = pair.strip().partition(":")
                self.keys[name.strip()] = key.strip()

    def who(self, key: str | None) -> str:
        """The moderator a bearer key names, or ``403 not_a_moderator`` (``401`` without
        one is the route's)."""
        if key is not None:
            for name, secret in self.keys.items():
                if hmac.compare_digest(secret.encode(), key.encode()):
                    return name
        raise NotAModerator(
            "this key is no operator credential: the moderators' endpoints take a key from "
            "FOURSQUARE_OPERATOR_KEYS"
        )


# A game's review and the moderators' decisions on it, as moderators see them (store.get).
Reviewed = tuple[Row[Any], list[Row[Any]]]


class FairPlayService:
    """The moderators' queue and decisions; each method one unit of work."""

    def __init__(self, database: Database, moderators: Moderators) -> None:
        self.database = database
        self.moderators = moderators

    async def queue(
        self, key: str | None, limit: int
    ) -> tuple[list[Row[Any]], list[Row[Any]], list[Row[Any]]]:
        self.moderators.who(key)

        def read(
            session: Executor,
        ) -> tuple[list[Row[Any]], list[Row[Any]], list[Row[Any]]]:
            return (
                store.flagged_games(session, limit),
                store.marked_accounts(session, limit),
                store.stuck_games(session, limit),
            )

        return await self.database.read(read)

    async def game(self, key: str | None, game_id: str) -> Reviewed:
        self.moderators.who(key)
        game_uuid = parse_game_id(game_id)
        return await self.database.read(lambda session: _review_of(session, game_uuid))

    async def decide_game(
        self, key: str | None, game_id: str, action: Action, note: str | None
    ) -> Reviewed:
        moderator = self.moderators.who(key)
        game_uuid = parse_game_id(game_id)

        def write(session: Session) -> Reviewed:
            review, _ = _review_of(session, game_uuid)
            if review.verdict != "flagged":
                raise NotFlagged(
                    f"game {game_uuid} was not flagged by the fair-play review "
                    f"({review.verdict or 'not reviewed yet'}): there is nothing to decide"
                )
            account = store.account(session, review.player_id) if review.player_id else None
            held = _is_marked(account)
            decision = "cleared" if action == "clear" else "confirmed"
            was = review.decision or "flagged"
            store.decide_game(session, game_uuid, decision)
            store.record_decision(session, f"game:{game_uuid}", action, moderator, note, now())
            if not held and decision != was:
                if decision == "cleared":
                    _board(session, store.job_of(review), "cleared", ("flagged", "confirmed"))
                else:
                    GameService.set_review(
                        session, [game_uuid], "confirmed", ("flagged", "cleared")
                    )
                    if was == "cleared":
                        leaderboards.take_off_boards(session, [(game_uuid, review.finished_at)])
            return _review_of(session, game_uuid)

        return await self.database.write(write)

    async def names(self, player_ids: list[uuid.UUID]) -> dict[str, str]:
        """The accounts' names, by their ids as text (the queue lists accounts by id)."""

        def read(session: Executor) -> dict[str, str]:
            found = {}
            for player_id in player_ids:
                player = get_player(session, player_id)
                if player is not None:
                    found[str(player_id)] = player.name
            return found

        return await self.database.read(read)

    async def account(self, key: str | None, name: str) -> tuple[str, AccountStanding]:
        self.moderators.who(key)

        def read(session: Executor) -> tuple[str, AccountStanding]:
            player = find_player(session, name)
            return player.name, _account_of(session, player.id)

        return await self.database.read(read)

    async def decide_account(
        self, key: str | None, name: str, action: Action, note: str | None
    ) -> tuple[str, AccountStanding]:
        moderator = self.moderators.who(key)

        def write(session: Session) -> tuple[str, AccountStanding]:
            player = find_player(session, name)
            player_id = player.id
            found = store.account(session, player_id)
            if found is None:
                raise NotMarked("this account was never marked by the fair-play review")
            at = now()
            store.record_decision(session, f"player:{player_id}", action, moderator, note, at)
            if action == "clear":
                store.decide_account(session, player_id, "cleared", at)
                if found.state != "cleared":
                    _unmark(session, player_id)
            else:
                if found.state == "cleared":
                    _mark(session, player_id, found.flagged)
                store.decide_account(session, player_id, "confirmed", at)
            return player.name, _account_of(session, player_id)

        return await self.database.write(write)


def _review_of(session: Executor, game_id: uuid.UUID) -> Reviewed:
    review = store.get(session, game_id)
    if review is None:
        raise NotReviewed(
            f"game {game_id} has no fair-play review: only won games without hints have one"
        )
    return review, store.decisions(session, f"game:{game_id}")


# An account's mark (if any), its latest reviews and the moderators' decisions on it.
AccountStanding = tuple[Row[Any] | None, list[Row[Any]], list[Row[Any]]]


def _account_of(session: Executor, player_id: uuid.UUID) -> AccountStanding:
    return (
        store.account(session, player_id),
        store.reviews_of_player(session, player_id, 50),
        store.decisions(session, f"player:{player_id}"),
    )
