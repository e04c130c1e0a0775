"""The tournaments' ticker: what happens to a tournament without a request, and the games'
hook that keeps its standings. Every server process runs a ticker
(``FOURSQUARE_TOURNAMENT_WORKER``); each step is claimed in the database (a guarded
``UPDATE`` of the status, under the tournament's row), so each is done once whichever
replica does it:

- the start, at ``starts_at``: ``announced`` → ``running``, ``event: started``;
- the end, at ``ends_at``: the games still in progress end (lost: a deal not finished scores
  0), then ``running`` → ``ending``, the games are revealed (public from then on: the
  fair-play review queues their wins), the deals too, ``event: ended``;
- the final standings, once every won game has the fair-play review's word, however long
  that takes: a win counts only once the review found it clean, since counting it unreviewed
  would let whoever delays the review (a burst of wins queued ahead) place unseen play;
  ``FOURSQUARE_TOURNAMENT_REVIEW_WARN_SECONDS`` after the end, a tournament still waiting is
  logged as an error, once, for the operator (is a fair-play worker running?). Then each
  entrant's score again without its flagged wins, its place (equal score, cards and last
  finish share one; an entrant who played no deal gets none), ``finished``, ``event: final``.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import timedelta
from functools import partial

from sqlalchemy.orm import Session

from api.core.clock import now
from api.core.database import Database, Executor
from api.games import GameFacts, GameHooks, GameService
from api.tournaments import standings_store, store
from api.tournaments.schemas import (
    DealFinishedEvent,
    EndedEvent,
    FinalEvent,
    TimesEvent,
    Winner,
)
from api.tournaments.settings import TournamentSettings
from api.tournaments.store import DueTournament, Finishing, Terms
from api.tournaments.stream import locked, publish, publish_standings

log = logging.getLogger("foursquare.tournaments")

# The review's words under which a win counts in the final standings: found clean, or
# cleared by a moderator. ``flagged``, ``confirmed`` and ``held`` (its account is marked) do
# not; ``pending`` waits (the final standings wait for it). None: a game the review does not
# take (not a win).
COUNTED = ("clean", "cleared")


class TournamentTicker:
    """One process's ticker (:meth:`run`, until cancelled)."""

    def __init__(
        self, database: Database, games: GameService, secret: bytes, settings: TournamentSettings
    ) -> None:
        self.database = database
        self.games = games
        self.secret = secret
        self.tick = settings.tournament_tick_seconds
        self.review_warning = timedelta(seconds=settings.tournament_review_warn_seconds)
        self._warned: set[uuid.UUID] = set()  # ending tournaments already logged as waiting

    async def run(self) -> None:
        while True:
            try:
                await self.look_after()
            except Exception:
                log.exception("looking after the tournaments failed")  # the next tick retries
            await asyncio.sleep(self.tick)

    async def look_after(self) -> None:
        """Do every step due now (the tests call it with the clock moved)."""
        at = now()
        for tournament in await self.database.read(partial(store.tournaments_due, at=at)):
            if tournament.status == "announced":
                await self.database.write(partial(self._start, tournament_id=tournament.id))
            elif tournament.status == "running":
                # Each game in progress ends in a transaction of its own: its end takes its
                # player's figures, then the tournament's row (the games' lock order); two
                # ends in one transaction would take a player's figures with the row held.
                unfinished = await self.database.read(
                    partial(self._unfinished, tournament_id=tournament.id)
                )
                for game_id in unfinished:
                    await self.database.write(partial(self._end_game, game_id=game_id))
                await self.database.write(partial(self._end, tournament_id=tournament.id))
            elif await self.database.read(partial(self._reviewed, tournament=tournament)):
                # Read first: an ending tournament waits for the review, often for minutes,
                # and a write transaction each tick to find that out would be a waste.
                await self.database.write(partial(self._finish, tournament_id=tournament.id))

    def _start(self, session: Session, tournament_id: uuid.UUID) -> None:
        start_due(session, locked(session, tournament_id))

    def _unfinished(self, session: Executor, tournament_id: uuid.UUID) -> list[uuid.UUID]:
        played = [game.game_id for game in store.games_of(session, tournament_id)]
        summaries = self.games.summaries(session, played)
        return [each for each in played if summaries[each].status == "in_progress"]

    def _end_game(self, session: Session, game_id: uuid.UUID) -> None:
        # Lost (abandoned): a deal not finished by the end scores 0; its end is counted in
        # its entrant's standing by the hook, which takes the tournament's row last.
        self.games.end(session, [game_id])

    def _end(self, session: Session, tournament_id: uuid.UUID) -> None:
        tournament = locked(session, tournament_id)
        if tournament.status != "running" or tournament.ends_at > now():
            return
        played = [game.game_id for game in store.games_of(session, tournament_id)]
        summaries = self.games.summaries(session, played)
        if any(summaries[each].status == "in_progress" for each in played):
            return  # a game whose end was not stored (a failed write): the next tick ends it
        store.change_tournament(session, tournament_id, "running", status="ending")
        self.games.reveal(session, played)
        publish(session, tournament_id, "ended", EndedEvent())

    def _reviewed(self, session: Executor, tournament: Terms | DueTournament) -> bool:
        """Whether the review has had its word on every win of the tournament."""
        ids = [game.game_id for game in store.games_of(session, tournament.id)]
        summaries = self.games.summaries(session, ids)
        reviews = self.games.reviews(session, ids)
        won = [each for each in ids if summaries[each].status == "won"]
        waiting = sum(reviews.get(each) == "pending" for each in won)
        late = now() >= tournament.ends_at + self.review_warning
        if waiting and late and tournament.id not in self._warned:
            self._warned.add(tournament.id)
            log.error(
                "tournament %s ended at %s and still waits for the fair-play review of %d "
                "win(s): its final standings wait for them (is a fair-play worker running?)",
                tournament.id,
                tournament.ends_at.isoformat(),
                waiting,
            )
        return not waiting

    def _finish(self, session: Session, tournament_id: uuid.UUID) -> None:
        tournament = locked(session, tournament_id)
        if tournament.status != "ending" or not self._reviewed(session, tournament):
            return  # finished by another, or the review has not had its word yet
        played = store.games_of(session, tournament_id)
        ids = [game.game_id for game in played]
        summaries = self.games.summaries(session, ids)
        reviews = self.games.reviews(session, ids)
        scores: dict[int, int] = {}
        for game in played:
            summary = summaries[game.game_id]
            counted = reviews.get(game.game_id) in (*COUNTED, None)
            score = (summary.score or 0) if summary.status == "won" and counted else 0
            scores[game.entrant] = scores.get(game.entrant, 0) + score
        entrants = [
            entrant._replace(score=scores.get(entrant.number, 0))
            for entrant in store.all_entrants(session, tournament_id)
        ]
        for entrant, place in _places(entrants):
            store.set_entrant(
                session, tournament_id, entrant.number, score=entrant.score, place=place
            )
        store.change_tournament(
            session, tournament_id, "ending", status="finished", finished_at=now()
        )
        games: dict[int, list[uuid.UUID]] = {}
        for game in played:
            games.setdefault(game.entrant, []).append(game.game_id)
        publish_standings(session, tournament_id, games)
        winners = [
            Winner(place=place, name=name)
            for place, name in standings_store.winners(session, [tournament_id])[tournament_id]
        ]
        publish(session, tournament_id, "final", FinalEvent(winners=winners))


def start_due(session: Session, tournament: Terms) -> Terms:
    """Start an announced tournament whose start has come (its row held: :func:`locked`),
    whether the ticker or an entrant's first deal gets there first; the tournament as it is
    now."""
    if tournament.status != "announced" or tournament.starts_at > now():
        return tournament  # started (or edited, or cancelled) by another, or not yet due
    store.change_tournament(session, tournament.id, "announced", status="running")
    times = TimesEvent(starts_at=tournament.starts_at, ends_at=tournament.ends_at)
    publish(session, tournament.id, "started", times)
    return tournament._replace(status="running")


def _places(entrants: list[Finishing]) -> list[tuple[Finishing, int | None]]:
    """The final order (score, cards, the earlier last finish, the number) and each place:
    one more than the entrants strictly ahead; none for an entrant who played no deal."""
    far = now() + timedelta(days=365 * 100)

    def key(entrant: Finishing) -> tuple[int, int, float, int]:
        finished = (entrant.finished_at or far).timestamp()
        return -entrant.score, -entrant.cards, finished, entrant.number

    ordered = sorted(entrants, key=key)
    placed: list[tuple[Finishing, int | None]] = []
    place = 0
    for index, entrant in enumerate(ordered):
        if entrant.deals_played == 0:
            placed.append((entrant, None))
            continue
        if index == 0 or key(entrant)[:3] != key(ordered[index - 1])[:3]:
            place = index + 1
        placed.append((entrant, place))
    return placed


# ---------------------------------------------------------------- in the games' transactions


def subscribe(hooks: GameHooks) -> None:
    """Count a tournament game's end in its entrant's standing, in the game's transaction."""
    hooks.subscribe("tournaments", ended=_game_ended)


def _game_ended(session: Session, facts: GameFacts) -> None:
    # Only a sealed game can be a tournament's in progress (its deal is shared, sealed until
    # the end): any other game's end costs no tournament query, and a placement none at all.
    if not facts.sealed or facts.computer:
        return
    entry = store.game_entry(session, facts.game_id)
    if entry is None:
        return  # a race's
    tournament_id = entry.tournament_id
    locked(session, tournament_id)  # last of the end's locks: the standings take turns
    score = (facts.score or 0) if facts.status == "won" else 0
    store.add_deal(session, tournament_id, entry.entrant, score, facts.placements, facts.at)
    entrant = store.get_entrant(session, tournament_id, entry.entrant)
    assert entrant is not None  # an entrant with games is never removed
    finished = DealFinishedEvent(
        number=entrant.number,
        name=entrant.name,
        deal=entry.deal,
        deals_played=entrant.deals_played,
        score=entrant.score,
        cards=entrant.cards,
    )
    publish(session, tournament_id, "deal_finished", finished)
    publish_standings(session, tournament_id)
