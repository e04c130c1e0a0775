"""Races: one shared deal, played at once by 2 to 8 racers, each in an ordinary game of it.

A race opens in its ``lobby``; its start sets a countdown, and when that is over a server
process's ticker deals each racer's game (:mod:`api.games.dealing`, from
:func:`api.core.days.shared_deal`), sealed: its racer's only until the race ends. Racers place
through the games' own placement endpoint; the games' hooks (subscribed here, in the
placement's transaction) write the race's ``progress`` and ``finished`` events and, when the
last game ends, rank the racers, unseal the games and write the ``result``. A race out of
time has its unfinished games ended as abandoned by the games' expiry, whose hooks end it.

Every write to a race first takes its row (:func:`api.races.store.get_race`, locked), so joins,
ends and the numbering of its events take turns across processes. The ticker's work is
claimed in the database (a guarded ``UPDATE``), so each replica may run it and each thing
is done once: the deal, the end, each of the computer's placements.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from functools import partial

from pydantic import BaseModel
from sqlalchemy.orm import Session

from api.core.accounts import authenticate, identify
from api.core.clock import now
from api.core.database import Database, Executor
from api.core.days import shared_deal
from api.core.errors import ApiError, InvalidToken, NameTaken, RaceNotOpen
from api.core.hooks import GameFacts, GameHooks
from api.core.ids import existing_race, parse_race_id
from api.core.names import name_key
from api.core.schemas import DeckReveal
from api.core.secrets import hash_token, new_token, player_key_owner, token_matches
from api.core.settings import Settings
from api.events import announce
from api.events.schemas import CountdownEvent, RaceResultEvent, RacerEvent
from api.games import etags, expiry, snapshot
from api.games.dealing import deal, store_dealt
from api.games.records import DealtGame, LoadedGame, load_game
from api.games.service import GameService
from api.hints.pool import AdvicePool
from api.players.service import find_player, race_counts
from api.races import store
from api.races.schemas import (
    PlayerRaceOut,
    PlayerRaces,
    RaceCreate,
    RaceCreated,
    RaceOut,
    RacerIn,
    YourGame,
)
from api.races.store import RaceRecord, RacerRecord
from engine.cards import DECK_SIZE
from engine.player.advice import Budget

log = logging.getLogger("foursquare.races")

COMPUTER = "computer"


class RaceService:
    """Races; each method owns its units of work. ``run`` is the ticker."""

    def __init__(
        self,
        database: Database,
        games: GameService,
        pool: AdvicePool,
        secret: bytes,
        settings: Settings,
    ) -> None:
        self.database = database
        self.games = games
        self.pool = pool  # the hints' workers: the computer's choice is a hint's
        self.secret = secret
        self.countdown = timedelta(seconds=settings.race_countdown_seconds)
        self.pace = timedelta(seconds=settings.race_computer_seconds)
        # Often enough that a placement or a deal is late by a fraction of the pace at most.
        self.tick = min(0.5, settings.race_computer_seconds / 2)
        self.budget = Budget(placements=settings.hint_placements, milliseconds=settings.hint_max_ms)

    # ------------------------------------------------------------ the lobby

    async def open(self, body: RaceCreate, key: str | None) -> RaceCreated:
        """Open a race, its opener its first racer (and the computer its second, if asked)."""
        race_id = uuid.uuid4()
        commitment = shared_deal(self.secret, "race", race_id.hex).commitment
        race = RaceRecord(race_id, body.seats, body.time_limit, "lobby", commitment, 0, now())

        def write(session: Session) -> str | None:
            store.insert_race(session, race)
            token = self._join(session, race_id, body, key)
            if body.computer:
                self._add(session, race_id, {"name": COMPUTER, "computer": True})
            return token

        token = await self.database.write(write)
        return await self._created(race_id, token, key)

    async def join(self, race_id: str, body: RacerIn, key: str | None) -> RaceCreated:
        """Join a race in its lobby: ``409 race_not_open`` once started or full, ``409
        name_taken`` for a name already racing in it (or an account's, without its key)."""
        race_uuid = parse_race_id(race_id)
        token = await self.database.write(lambda s: self._join(s, race_uuid, body, key))
        return await self._created(race_uuid, token, key)

    def _join(
        self, session: Session, race_id: uuid.UUID, body: RacerIn, key: str | None
    ) -> str | None:
        who = identify(session, key, body.player)
        token = None if who.player_id is not None else new_token()
        racer = {"name": who.name, "player_id": who.player_id, "computer": False}
        self._add(session, race_id, racer | {"token_hash": token and hash_token(token)})
        return token

    def _add(self, session: Session, race_id: uuid.UUID, racer: Mapping[str, object]) -> None:
        race, racers = _locked(session, race_id)
        if race.status != "lobby" or len(racers) >= race.seats:
            raise RaceNotOpen(
                f"the race is {'full' if race.status == 'lobby' else race.status}: racers join "
                "it while it is in its lobby"
            )
        if any(name_key(other.name) == name_key(str(racer["name"])) for other in racers):
            raise NameTaken(f"{racer['name']!r} is in this race already: join under another name")
        number = max((other.number for other in racers), default=0) + 1
        store.insert_racer(session, race_id, {"number": number, **racer})
        joined = _racer_out(store.get_racers(session, race_id)[-1])
        _event(session, race_id, "joined", joined)
        if len(racers) + 1 == race.seats:
            self._start(session, race)

    async def start(self, race_id: str, credential: str | None) -> RaceOut:
        """Start a race: its opener only (``403``), in its lobby with two racers at least."""
        race_uuid = parse_race_id(race_id)

        def write(session: Session) -> None:
            race, racers = _locked(session, race_uuid)
            you = _you(session, racers, credential)
            if you is None or you.number != 1:
                raise InvalidToken("only the race's opener starts it (with their key or token)")
            if race.status != "lobby" or len(racers) < 2:
                raise RaceNotOpen("a race starts from its lobby, with two racers at least")
            self._start(session, race)

        await self.database.write(write)
        return await self.read(race_id, credential)

    def _start(self, session: Session, race: RaceRecord) -> None:
        starts = now() + self.countdown
        ends = starts + timedelta(seconds=race.time_limit)
        store.change_race(
            session, race.id, "lobby", status="countdown", starts_at=starts, ends_at=ends
        )
        _event(session, race.id, "countdown", CountdownEvent(starts_at=starts, ends_at=ends))

    async def rematch(self, race_id: str, credential: str | None) -> tuple[RaceOut, bool]:
        """The next race for the same racers, once this one is over: opened by the first
        racer who asks, the same one for the others (whether it was opened now)."""
        race_uuid = parse_race_id(race_id)

        def write(session: Session) -> tuple[uuid.UUID, bool]:
            race, racers = _locked(session, race_uuid)
            if _you(session, racers, credential) is None:
                raise InvalidToken("only a racer of the race asks for its rematch")
            if race.next_race_id is not None:
                return race.next_race_id, False
            if race.status != "finished":
                raise RaceNotOpen("the race is not over: ask for a rematch once it has finished")
            new = uuid.uuid4()
            commitment = shared_deal(self.secret, "race", new.hex).commitment
            store.insert_race(
                session, RaceRecord(new, race.seats, race.time_limit, "lobby", commitment, 0, now())
            )
            store.change_race(session, race.id, "finished", next_race_id=new)
            for racer in sorted(racers, key=lambda racer: racer.number):
                fields = ("name", "player_id", "token_hash", "computer")
                self._add(session, new, {name: getattr(racer, name) for name in fields})
            return new, True

        new, opened = await self.database.write(write)
        return await self.read(str(new), credential), opened

    # ------------------------------------------------------------ reading

    async def read(self, race_id: str, credential: str | None) -> RaceOut:
        """A race: its racers' counts, and to a racer's credential its own game."""
        race_uuid = parse_race_id(race_id)

        def read(
            session: Executor,
        ) -> tuple[RaceRecord, list[RacerRecord], RacerRecord | None, DeckReveal | None]:
            race = existing_race(store.get_race(session, race_uuid), race_id)
            racers = store.get_racers(session, race_uuid)
            reveal = _reveal(session, racers) if race.status == "finished" else None
            return race, racers, _you(session, racers, credential), reveal

        race, racers, you, reveal = await self.database.read(read)
        if race.status == "finished":
            racers.sort(key=lambda racer: racer.rank or 0)
        mine = None
        if you and you.game_id and credential and race.status in ("running", "finished"):
            mine = YourGame(id=you.game_id, token=credential)
        over = race.status == "finished"
        out = [_racer_out(racer, over=over) for racer in racers]
        return RaceOut.model_validate(
            race._asdict()
            | {"next_race": race.next_race_id, "racers": out}
            | {"you": you.number if you else None, "your_game": mine, "reveal": reveal}
        )

    async def _created(self, race_id: uuid.UUID, token: str | None, key: str | None) -> RaceCreated:
        race = await self.read(str(race_id), token or key)
        return RaceCreated(**race.model_dump(), racer_token=token)

    async def of_player(self, name: str) -> PlayerRaces:
        """A player's race figures and their last 100 races (404 for no such player)."""

        def read(session: Executor) -> PlayerRaces:
            player_id = find_player(session, name).id
            rows = store.player_races(session, player_id, 100)
            played, won = race_counts(session, player_id)
            races = [PlayerRaceOut.model_validate(row) for row in rows]
            return PlayerRaces(races_played=played, races_won=won, races=races)

        return await self.database.read(read)

    # ------------------------------------------------------------ the ticker

    async def run(self) -> None:
        """Every ``tick`` seconds, until cancelled: deal the races whose countdown is over,
        end those out of time, play the computer's placements that are due."""
        while True:
            await asyncio.sleep(self.tick)
            try:
                await self.look_after()
            except Exception:
                log.exception("looking after the races failed")  # the next tick tries again

    async def look_after(self) -> None:
        at = now()
        for race in await self.database.read(store.races_not_finished):
            if race.status == "countdown" and race.starts_at and race.starts_at <= at:
                await self.database.write(partial(self._deal, race_id=race.id))
            elif race.status == "running" and race.ends_at and race.ends_at <= at:
                await self._time_up(race.id)
            elif race.status == "running" and race.computer_at and race.computer_at <= at:
                await self._computer_plays(race)

    def _deal(self, session: Session, race_id: uuid.UUID) -> None:
        race, racers = _locked(session, race_id)
        if race.status != "countdown":
            return  # another process dealt it
        shared = shared_deal(self.secret, "race", race.id.hex)
        for racer in racers:
            dealt = deal(racer.name, player_id=racer.player_id, challenge=shared)
            token = self._computer_token(race.id) if racer.computer else new_token()
            row = dealt.row._replace(token_hash=racer.token_hash or hash_token(token))
            store_dealt(session, DealtGame(row, token))
            store.set_racer(session, race.id, racer.number, game_id=row.id)
        computer = now() + self.pace if any(racer.computer for racer in racers) else None
        store.change_race(session, race.id, "countdown", status="running", computer_at=computer)
        # Racers' pages read `your_game` on this rather than asking until it is there.
        assert race.starts_at is not None and race.ends_at is not None  # set by the start
        started = CountdownEvent(starts_at=race.starts_at, ends_at=race.ends_at)
        _event(session, race.id, "started", started)

    async def _time_up(self, race_id: uuid.UUID) -> None:
        """End the race's unfinished games as abandoned (lost), as the expiry ends any game:
        the last end ends the race (:func:`_game_ended`)."""

        def read(session: Executor) -> list[LoadedGame]:
            racers = store.get_racers(session, race_id)
            playing = [racer.game_id for racer in racers if racer.status == "in_progress"]
            return [load_game(session, game_id) for game_id in playing if game_id]

        playing = await self.database.read(read)
        plans = expiry.plan_expiry([loaded.row for loaded in playing], now())
        await self.database.write(lambda s: expiry.store_expiry(s, plans))

    def _computer_token(self, race_id: uuid.UUID) -> str:
        # The computer racer's game token, which only the service can compute.
        return hmac.new(
            self.secret, f"race-computer:{race_id.hex}".encode(), hashlib.sha256
        ).hexdigest()

    async def _computer_plays(self, race: RaceRecord) -> None:
        """One placement of the computer's game, claimed first (one process plays it), chosen
        from its public view only, made through the games' own placement path."""
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
        seed = loaded.row.id.int & 0xFFFFFFFF  # as a hint's: the same state, the same advice
        advice = await self.pool.advise(loaded.game.public_view(), seed=seed, budget=self.budget)
        cell = (advice.placement.row, advice.placement.col)
        token = self._computer_token(race.id)
        etag = etags.etag(loaded.row.version)
        try:
            await self.games.place(str(mine.game_id), token, cell, etag, None)
        except ApiError as refused:  # the race ended meanwhile
            log.info("the computer's placement in race %s was refused: %s", race.id, refused.detail)


# ---------------------------------------------------------------- in the games' transactions


def subscribe(hooks: GameHooks) -> None:
    """Write a race's events as its games move and end, and end it with its last game."""
    hooks.stored.append(_game_stored)  # a progress event counts the placement just stored
    hooks.ended.append(_game_ended)


def _game_stored(session: Session, facts: GameFacts) -> None:
    # An end is the ``ended`` hook's: an expiry ends several games before any ``ended``, and
    # taking the race's row between two of them could wait on a placement in a loop.
    if not facts.sealed or facts.status != "in_progress":
        return
    found = store.race_of_game(session, facts.game_id)
    if found is not None:
        race_id, number = found
        racer = next(r for r in store.get_racers(session, race_id) if r.number == number)
        _event(session, race_id, "progress", _racer_out(racer))


def _game_ended(session: Session, facts: GameFacts) -> None:
    found = store.race_of_game(session, facts.game_id) if facts.sealed else None
    if found is None:
        return
    race_id, number = found
    race, racers = _locked(session, race_id)
    over = _ranking([racer for racer in racers if racer.status not in (None, "in_progress")])
    rank = next(place for place, racer in enumerate(over, 1) if racer.number == number)
    _event(session, race_id, "finished", _racer_out(over[rank - 1], rank))
    if over[rank - 1].computer:  # nothing more for the ticker to play
        store.change_race(session, race_id, "running", computer_at=None)
    if len(over) < len(racers) or race.status != "running":
        return
    for place, racer in enumerate(over, 1):
        store.set_racer(session, race_id, racer.number, rank=place)
    store.change_race(
        session, race_id, "running", status="finished", finished_at=now(), computer_at=None
    )
    store.unseal(session, [racer.game_id for racer in racers if racer.game_id is not None])
    reveal = _reveal(session, racers)
    assert reveal is not None
    result = RaceResultEvent(
        racers=[_racer_out(racer, place, True) for place, racer in enumerate(over, 1)],
        deck=reveal.deck,
        salt=reveal.salt,
    )
    _event(session, race_id, "result", result)


# ---------------------------------------------------------------- shared steps


def _locked(session: Session, race_id: uuid.UUID) -> tuple[RaceRecord, list[RacerRecord]]:
    """The race and its racers, its row held until the transaction ends (404 if none)."""
    race = existing_race(store.get_race(session, race_id, lock=True), race_id)
    return race, store.get_racers(session, race_id)


def _event(session: Session, race_id: uuid.UUID, kind: str, data: BaseModel) -> None:
    number = store.next_event(session, race_id)
    announce.race_event(session, race_id, number, kind, data.model_dump_json())


def _ranking(racers: list[RacerRecord]) -> list[RacerRecord]:
    """Won before lost, then the higher score, then the earlier end, then the earlier join."""
    never = datetime.max.replace(tzinfo=UTC)

    def key(racer: RacerRecord) -> tuple[bool, int, datetime, int]:
        return racer.status != "won", -(racer.score or 0), racer.finished_at or never, racer.number

    return sorted(racers, key=key)


def _you(
    session: Executor, racers: list[RacerRecord], credential: str | None
) -> RacerRecord | None:
    """The racer whose credential this is: an account's key (checked: ``403`` if it is not
    its current key), or a guest's racer token."""
    if credential is None:
        return None
    if player_key_owner(credential) is not None:
        account = authenticate(session, credential).id
        return next((racer for racer in racers if racer.player_id == account), None)
    return next(
        (r for r in racers if r.token_hash is not None and token_matches(credential, r.token_hash)),
        None,
    )


def _reveal(session: Executor, racers: list[RacerRecord]) -> DeckReveal | None:
    """The shared deal, from a racer's game (every one is dealt the same)."""
    game_id = next((racer.game_id for racer in racers if racer.game_id), None)
    if game_id is None:
        return None
    loaded = load_game(session, game_id)
    return DeckReveal(deck=[card.code for card in loaded.game.deck], salt=loaded.row.salt)


def _racer_out(racer: RacerRecord, rank: int | None = None, over: bool = False) -> RacerEvent:
    """``over``: the race is over, its games public (until then a racer's game id is its
    racer's only, in ``your_game``)."""
    taken = snapshot.loads(racer.snapshot) if racer.snapshot else None
    return RacerEvent(
        racer=racer.number,
        name=racer.name,
        registered=racer.player_id is not None,
        computer=racer.computer,
        state=racer.status or "waiting",  # type: ignore[arg-type]
        placements=racer.placements_count or 0,
        face_down=taken.face_down_count if taken else 0,
        cards_left=taken.stock_count if taken else DECK_SIZE,
        score=racer.score,
        rank=rank or racer.rank,
        game_id=racer.game_id if over else None,
    )
