"""The races' ticker: what happens to a race without a request. Every server process runs
one (``FOURSQUARE_RACE_WORKER``); its work is claimed in the database (the race's row, or a
guarded ``UPDATE``), so each thing is done once whichever replica does it:

- the deal, when a countdown is over: each racer's game, through the games' one way of making
  a game, sealed and with the race's end as its deadline;
- the end, when every game of a race is over (a racer's last placement wakes this process's
  ticker: the placement took no lock of the race) or its time is up (the games still in
  progress end, lost): the ranking (:func:`_ranking`), the games revealed (public from
  then on, and on the boards), the ``result``;
- the computer's placements, at its level, through the games' own placement path;
- the closing of a lobby with no join or leave for ``FOURSQUARE_RACE_LOBBY_MINUTES`` (a
  guarded ``UPDATE`` from ``lobby``): its stream's ``closed``, and off the open races.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from functools import partial

from sqlalchemy.orm import Session

from api.accounts import COMPUTER, Identity
from api.core.clock import now
from api.core.database import Database, Executor, after_commit
from api.core.errors import ApiError
from api.core.secrets import hash_token
from api.games import GameFacts, GameHooks, GameService, GameSummary, etag
from api.hints import AdvicePool
from api.races import store
from api.races.open_list import open_list_changed
from api.races.schemas import CountdownEvent, RaceClosedEvent, RaceResultEvent
from api.races.settings import RaceSettings
from api.races.store import DueRace, Racer
from api.races.stream import deal_of, game_of, locked, publish, racer_out
from engine.player.advice import LEVELS, Budget, Level

log = logging.getLogger("foursquare.races")

# Every finished race's games are over: a sweep of the running races this often finds one
# whose last end did not wake a ticker (the process that stored it stopped first).
SWEEP_SECONDS = 5.0

# The tickers of this process, woken by a race's last end (see :func:`_game_ended`).
_TICKERS: set[Callable[[uuid.UUID], None]] = set()


class RaceTicker:
    """One process's ticker (:meth:`run`, until cancelled)."""

    def __init__(
        self,
        database: Database,
        games: GameService,
        pool: AdvicePool,
        secret: bytes,
        settings: RaceSettings,
        budget: Budget,
    ) -> None:
        self.database = database
        self.games = games
        self.pool = pool  # the hints' workers: the computer's choice is a hint's
        self.secret = secret
        self.pace = timedelta(seconds=settings.race_computer_seconds)
        self.idle = timedelta(minutes=settings.race_lobby_minutes)
        # Often enough that a placement or a deal is late by a fraction of the pace at most.
        self.tick = min(0.5, settings.race_computer_seconds / 2)
        self.budget = budget  # a hint's effort (the hints' settings): the computer's choice is one
        self._ended: set[uuid.UUID] = set()  # races whose last game ended here: finish them
        self._woken: asyncio.Event | None = None

    async def run(self) -> None:
        """Until cancelled: deal the races whose countdown is over, end those whose games are
        all over (at once, when woken by a last end here) or whose time is up, play the
        computer's placements that are due, close the lobbies left idle."""
        self._woken = asyncio.Event()
        loop = asyncio.get_running_loop()
        waker = partial_waker(loop, self._wake)
        _TICKERS.add(waker)
        swept = 0.0
        try:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._woken.wait(), self.tick)
                self._woken.clear()
                swept += self.tick
                try:
                    await self.look_after(sweep=swept >= SWEEP_SECONDS)
                except Exception:
                    log.exception("looking after the races failed")  # the next tick tries again
                if swept >= SWEEP_SECONDS:
                    swept = 0.0
        finally:
            _TICKERS.discard(waker)

    def _wake(self, race_id: uuid.UUID) -> None:
        self._ended.add(race_id)
        if self._woken is not None:
            self._woken.set()

    async def look_after(self, *, sweep: bool = False) -> None:
        ended, self._ended = self._ended, set()
        if sweep:
            ended |= await self.database.read(_all_over)
        for race_id in ended:
            await self.database.write(partial(self._finish, race_id=race_id))
        at = now()
        idle_since = at - self.idle
        due = partial(store.races_due, at=at, idle_since=idle_since)
        for race in await self.database.read(due):
            if race.status == "lobby":
                await self.database.write(
                    partial(self.close_idle, race_id=race.id, idle_since=idle_since)
                )
            elif race.status == "countdown":
                await self.database.write(partial(self._deal, race_id=race.id))
            elif race.ends_at is not None and race.ends_at <= at:
                await self.database.write(partial(self._finish, race_id=race.id))
            else:
                await self._computer_plays(race)

    def _deal(self, session: Session, race_id: uuid.UUID) -> None:
        race, racers = locked(session, race_id)
        if race.status != "countdown":
            return  # another process dealt it
        shared = deal_of(self.secret, race.id)
        for racer in racers:
            account = racer.credential.player_id
            player = COMPUTER if racer.computer else Identity(racer.name, account)
            credential = hash_token(self._computer_token(race.id)) if racer.computer else None
            game = self.games.start(
                session,
                player,
                shared=shared,
                deadline=race.ends_at,
                token_hash=racer.credential.token_hash or credential,
            )
            store.set_racer(session, race.id, racer.number, game_id=game.id)
        computer = now() + self.pace if any(racer.computer for racer in racers) else None
        store.change_race(session, race.id, "countdown", status="running", computer_at=computer)
        # Racers' pages read `your_game` on this rather than asking until it is there.
        assert race.starts_at is not None and race.ends_at is not None  # set by the start
        started = CountdownEvent(starts_at=race.starts_at, ends_at=race.ends_at)
        publish(session, race.id, "started", started)

    def close_idle(self, session: Session, race_id: uuid.UUID, idle_since: datetime) -> bool:
        """Close the lobby if nobody joined or left it since ``idle_since``, as its last
        person leaving would (its stream ends, it leaves the open races); whether this call
        did. The guarded ``UPDATE`` is the claim: another replica's, or a join first, finds
        nothing to do."""
        if not store.close_idle(session, race_id, idle_since):
            return False
        race = store.get_race(session, race_id)
        assert race is not None  # its row is held since the UPDATE
        publish(session, race_id, "closed", RaceClosedEvent(reason="idle"))
        if race.public:
            open_list_changed(session)  # closed: off the list
        return True

    def _finish(self, session: Session, race_id: uuid.UUID) -> None:
        """End the race if every game of it is over, or its time is up (its games still in
        progress end, lost): rank the racers, reveal the games and write the result."""
        race, racers = locked(session, race_id)
        if race.status != "running":
            return
        playing = [racer.game_id for racer in racers if racer.game_id is not None]
        summaries = self.games.summaries(session, playing)
        unfinished = [game_id for game_id in playing if summaries[game_id].status == "in_progress"]
        if unfinished:
            if race.ends_at is None or now() < race.ends_at:
                return
            self.games.end(session, unfinished)
            summaries = self.games.summaries(session, playing)
        ranking = _ranking(racers, summaries)
        for place, racer in enumerate(ranking, 1):
            store.set_racer(session, race_id, racer.number, rank=place)
        store.change_race(
            session, race_id, "running", status="finished", finished_at=now(), computer_at=None
        )
        self.games.reveal(session, playing)
        reveal = deal_of(self.secret, race_id)
        result = RaceResultEvent(
            racers=[
                racer_out(racer._replace(rank=place), game_of(summaries, racer), True)
                for place, racer in enumerate(ranking, 1)
            ],
            deck=list(reveal.deck),
            salt=reveal.salt,
        )
        publish(session, race_id, "result", result)

    def _computer_token(self, race_id: uuid.UUID) -> str:
        # The computer racer's game token, which only the service can compute.
        return hmac.new(
            self.secret, f"race-computer:{race_id.hex}".encode(), hashlib.sha256
        ).hexdigest()

    async def _computer_plays(self, race: DueRace) -> None:
        """One placement of the computer's game, claimed first (one process plays it), chosen
        at its level from its public view only, made through the games' own placement path."""
        due = race.computer_at
        assert due is not None
        if not await self.database.write(
            lambda s: store.claim_computer(s, race.id, due, now() + self.pace)
        ):
            return
        racers = await self.database.read(lambda s: store.get_racers(s, race.id))
        mine = next(racer for racer in racers if racer.computer)
        loaded = await self.games.load(str(mine.game_id))
        if loaded.game.is_over:
            return
        level = Level(race.computer_level or Level.BEST)
        policy, budget = LEVELS[level]
        if level is Level.BEST:
            budget = self.budget  # the hints' effort, as configured
        seed = loaded.row.id.int & 0xFFFFFFFF  # as a hint's: the same state, the same advice
        view = loaded.game.public_view()
        token = self._computer_token(race.id)
        try:
            # Each race's computer is a client of the hint workers of its own, with its share.
            keys = (("race", str(race.id)),)
            cell = await self.pool.choose(view, seed=seed, policy=policy, budget=budget, keys=keys)
            await self.games.place(str(mine.game_id), token, cell, etag(loaded.row.version), None)
        except ApiError as refused:
            # The race's time is up, or the hint workers are busy or stopping (the server is
            # leaving): the computer plays at its next turn, or not at all.
            log.info(
                "the computer's placement in race %s was not made: %s", race.id, refused.detail
            )


def _all_over(session: Executor) -> set[uuid.UUID]:
    """The running races whose games are all over (their last end woke no ticker): two
    statements, however many races run."""
    running = store.games_running(session)
    playing = [game_id for race in running.values() for game_id in race if game_id]
    games = GameService.summaries(session, playing) if playing else {}
    return {
        race_id
        for race_id, race in running.items()
        if all(
            game_id is not None
            and (game := games.get(game_id)) is not None
            and game.status != "in_progress"
            for game_id in race
        )
    }


def partial_waker(
    loop: asyncio.AbstractEventLoop, wake: Callable[[uuid.UUID], None]
) -> Callable[[uuid.UUID], None]:
    """``wake`` called on ``loop`` from any thread (a write's, after its commit)."""

    def waker(race_id: uuid.UUID) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to wake
            loop.call_soon_threadsafe(wake, race_id)

    return waker


# ---------------------------------------------------------------- in the games' transactions


def subscribe(hooks: GameHooks) -> None:
    """When a race's game ends, wake this process's tickers once it is stored: if it was the
    race's last, the race ends at once (the ticker takes the race's row; the placement did
    not)."""
    hooks.subscribe("races", ended=_game_ended)


def _game_ended(session: Session, facts: GameFacts) -> None:
    if not facts.sealed:
        return
    race_id = store.race_of_game(session, facts.game_id)
    if race_id is not None:
        after_commit(session, lambda: _wake_tickers(race_id))


def _wake_tickers(race_id: uuid.UUID) -> None:
    for waker in list(_TICKERS):
        waker(race_id)


def _ranking(racers: list[Racer], games: Mapping[uuid.UUID, GameSummary]) -> list[Racer]:
    """A win before every loss, the higher score first; among losses the game that went
    further (more placements) first: a racer who plays on is never behind one who lost
    sooner, so giving up early cannot rank first. Ties go to the earlier end of the game, then
    the earlier join. (Migration 0021 ranked the races finished before it by this rule.)"""
    never = datetime.max.replace(tzinfo=UTC)

    def key(racer: Racer) -> tuple[int, int, datetime, int]:
        game = games[racer.game_id] if racer.game_id else None
        if game is None:
            return 2, 0, never, racer.number
        ended = game.finished_at or never
        if game.status == "won":
            return 0, -(game.score or 0), ended, racer.number
        return 1, -game.placements, ended, racer.number

    return sorted(racers, key=key)
