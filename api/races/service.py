"""Races: one shared deal, played at once by 2 to 8 racers, each in an ordinary game of it.

A race opens in its ``lobby``, where racers join and leave; its start sets a countdown, and
when that is over a server process's ticker deals each racer's game through the games' one
way of making a game (:meth:`api.games.GameService.start`), sealed (its racer's only until the
race ends) and with the race's end as its deadline (no placement is stored after it).

Racers place through the games' own placement endpoint, and the race's progress *is* their
games' state: a placement takes no lock of the race and writes nothing of it. The race's
stream (:mod:`api.races.stream`) reads each racer's counts from its game. Only the race's
rare events are written, in order, under the race's row: a join, a leave, the countdown, the
deal, the result and the rematch.

A race ends when its last game does (the racer's last placement wakes this process's
ticker) or when its time is up (the ticker ends the games still in progress, lost): the ticker
ranks the racers, reveals the games (public from then on: the boards count their wins now)
and writes the result. Its work is claimed in the database (a guarded ``UPDATE``, or the
race's row), so each replica may run it and each thing is done once.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Callable, Mapping
from datetime import timedelta

from sqlalchemy.orm import Session

from api.accounts import (
    COMPUTER,
    InvalidToken,
    NameTaken,
    PlayerRecord,
    authenticate,
    find_player,
    identify,
)
from api.core.clock import now
from api.core.database import Database, Executor
from api.core.days import shared_deal
from api.core.names import same_name
from api.core.schemas import DeckReveal
from api.core.secrets import hash_token, new_token, player_key_id, token_matches
from api.events import EventService
from api.games import GameService
from api.hints import AdvicePool
from api.idempotency import Answer, IdempotentRequests, credential_digest, fingerprint
from api.races import open_list, store
from api.races.errors import RaceNotOpen
from api.races.ids import existing_race, parse_race_id
from api.races.open_list import OPEN_KEY, OpenListTopic, open_list_changed, open_out
from api.races.schemas import (
    CountdownEvent,
    OpenRaces,
    PlayerRaceOut,
    PlayerRaces,
    RaceCreate,
    RaceCreated,
    RaceOut,
    RacerIn,
    RematchEvent,
    YourGame,
)
from api.races.settings import RaceSettings
from api.races.store import Racer, RaceState
from api.races.stream import (
    RaceTopic,
    deal_of,
    game_of,
    games_of,
    locked,
    parse_position,
    publish,
    racer_out,
)
from api.races.ticker import RaceTicker
from engine.player.advice import Budget

log = logging.getLogger("foursquare.races")


class RaceService:
    """Races; each method owns its units of work. ``run`` is the ticker."""

    def __init__(
        self,
        database: Database,
        games: GameService,
        events: EventService,
        pool: AdvicePool,
        requests: IdempotentRequests,
        secret: bytes,
        settings: RaceSettings,
        budget: Budget,
        cursor_secret: bytes,
    ) -> None:
        self.database = database
        self.cursor_secret = cursor_secret  # the open races' pages
        self.open_topic = OpenListTopic(database)
        self.requests = requests
        self.games = games
        self.events = events
        self.topic = RaceTopic(database)
        self.ticker = RaceTicker(database, games, pool, secret, settings, budget)
        self.pool = pool  # the hints' workers: the computer's choice is a hint's
        self.secret = secret
        self.countdown = timedelta(seconds=settings.race_countdown_seconds)
        self.pace = timedelta(seconds=settings.race_computer_seconds)
        # Often enough that a placement or a deal is late by a fraction of the pace at most.
        self.tick = min(0.5, settings.race_computer_seconds / 2)
        self.budget = budget  # a hint's effort (the hints' settings): the computer's choice is one
        self._ended: set[uuid.UUID] = set()  # races whose last game ended here: finish them
        self._woken: asyncio.Event | None = None

    # ------------------------------------------------------------ the lobby

    async def open(
        self, body: RaceCreate, key: str | None, idempotency_key: str | None = None
    ) -> tuple[Answer, bool]:
        """Open a race, its opener its first racer (and the computer its second, if asked);
        the answer, and whether it is the replay of an earlier request with the same
        ``Idempotency-Key`` (the same body, from the same account or a guest)."""

        async def prepare(_: PlayerRecord | None) -> Callable[[Session], Answer]:
            race_id = uuid.uuid4()
            commitment = shared_deal(self.secret, "race", race_id.hex).commitment
            level = body.level if body.computer else None
            opened_at = now()

            def write(session: Session) -> Answer:
                store.insert_race(
                    session,
                    race_id,
                    seats=body.seats,
                    time_limit=body.time_limit,
                    deck_commitment=commitment,
                    created_at=opened_at,
                    computer_level=level,
                    public=body.public,
                )
                token = self._join(session, race_id, body, key)
                if body.computer:
                    self._add(session, race_id, {"name": COMPUTER.name, "computer": True})
                return self._created(session, race_id, token, key)

            return write

        return await self.requests.run(
            idempotency_key,
            "races",
            lambda: _entry_fingerprint("/races", body, key),
            "/races",
            prepare,
            _account_check(key),
        )

    async def join(
        self, race_id: str, body: RacerIn, key: str | None, idempotency_key: str | None = None
    ) -> tuple[Answer, bool]:
        """Join a race in its lobby: ``409 race_not_open`` once started or full, ``409
        name_taken`` for a name that looks like one racing in it (or an account's, without
        its key); the answer, and whether it is a replay (as :meth:`open`)."""
        race_uuid = parse_race_id(race_id)

        async def prepare(_: PlayerRecord | None) -> Callable[[Session], Answer]:
            def write(session: Session) -> Answer:
                token = self._join(session, race_uuid, body, key)
                return self._created(session, race_uuid, token, key)

            return write

        return await self.requests.run(
            idempotency_key,
            f"race:{race_uuid.hex}",
            lambda: _entry_fingerprint(f"/races/{race_uuid.hex}/racers", body, key),
            f"/races/{race_id}/racers",
            prepare,
            _account_check(key),
        )

    def _join(
        self, session: Session, race_id: uuid.UUID, body: RacerIn, key: str | None
    ) -> str | None:
        who = identify(session, key, body.player)
        token = None if who.player_id is not None else new_token()
        racer = {"name": who.name, "player_id": who.player_id, "computer": False}
        self._add(session, race_id, racer | {"token_hash": token and hash_token(token)})
        return token

    def _add(
        self,
        session: Session,
        race_id: uuid.UUID,
        racer: Mapping[str, object],
        *,
        start_when_full: bool = True,
    ) -> None:
        race, racers = locked(session, race_id)
        if race.status != "lobby" or len(racers) >= race.seats:
            raise RaceNotOpen(
                f"the race is {'full' if race.status == 'lobby' else race.status}: racers join "
                "it while it is in its lobby"
            )
        name = str(racer["name"])
        if any(same_name(other.name, name) for other in racers):
            raise NameTaken(
                f"{name!r} is, or looks like, a name in this race already: join under another"
            )
        number = max((other.number for other in racers), default=0) + 1
        store.insert_racer(session, race_id, {"number": number, **racer})
        publish(session, race_id, "joined", racer_out(store.get_racers(session, race_id)[-1]))
        if race.public:
            open_list_changed(session)  # listed, one more racer, or full
        if start_when_full and len(racers) + 1 == race.seats:
            self._start(session, race)

    async def leave(self, race_id: str, credential: str | None) -> RaceOut:
        """Leave a race's lobby (a racer's credential, ``403`` otherwise; ``409
        race_not_open`` once it has started). The opener leaving hands the race to the next
        racer; the last person leaving closes it."""
        race_uuid = parse_race_id(race_id)

        def write(session: Session) -> None:
            race, racers = locked(session, race_uuid)
            you = _you(session, racers, credential)
            if you is None:
                raise InvalidToken("only a racer of the race leaves it (with their key or token)")
            if race.status != "lobby":
                raise RaceNotOpen("a racer leaves a race while it is in its lobby")
            store.delete_racer(session, race_uuid, you.number)
            if not any(not racer.computer for racer in racers if racer.number != you.number):
                store.change_race(session, race_uuid, "lobby", status="closed", computer_at=None)
            publish(session, race_uuid, "left", racer_out(you))
            if race.public:
                open_list_changed(session)  # one racer fewer, or closed

        await self.database.write(write)
        return await self.read(race_id, None)

    async def start(self, race_id: str, credential: str | None) -> RaceOut:
        """Start a race: its opener only (``403``), in its lobby with two racers at least."""
        race_uuid = parse_race_id(race_id)

        def write(session: Session) -> None:
            race, racers = locked(session, race_uuid)
            you = _you(session, racers, credential)
            opener = _opener(racers)
            if you is None or opener is None or you.number != opener.number:
                raise InvalidToken("only the race's opener starts it (with their key or token)")
            if race.status != "lobby" or len(racers) < 2:
                raise RaceNotOpen("a race starts from its lobby, with two racers at least")
            self._start(session, race)

        await self.database.write(write)
        return await self.read(race_id, credential)

    def _start(self, session: Session, race: RaceState) -> None:
        starts = now() + self.countdown
        ends = starts + timedelta(seconds=race.time_limit)
        store.change_race(
            session, race.id, "lobby", status="countdown", starts_at=starts, ends_at=ends
        )
        publish(session, race.id, "countdown", CountdownEvent(starts_at=starts, ends_at=ends))
        if race.public:
            open_list_changed(session)  # started: off the list

    async def rematch(
        self, race_id: str, credential: str | None, idempotency_key: str | None = None
    ) -> tuple[Answer, bool]:
        """The next race for the same racers, once this one is over: opened by the first
        racer who asks (``201``), the same one for the others (``200``). The old race's
        stream tells its watchers with a ``rematch`` event. The answer, and whether it is the
        replay of an earlier request with the same ``Idempotency-Key`` and credential."""
        race_uuid = parse_race_id(race_id)

        def opened_by(session: Session) -> tuple[uuid.UUID, bool]:
            race, racers = locked(session, race_uuid)
            if _you(session, racers, credential) is None:
                raise InvalidToken("only a racer of the race asks for its rematch")
            if race.next_race_id is not None:
                return race.next_race_id, False
            if race.status != "finished":
                raise RaceNotOpen("the race is not over: ask for a rematch once it has finished")
            new = uuid.uuid4()
            commitment = shared_deal(self.secret, "race", new.hex).commitment
            # Private, as the race it follows was by link: its racers are in it already.
            store.insert_race(
                session,
                new,
                seats=race.seats,
                time_limit=race.time_limit,
                deck_commitment=commitment,
                created_at=now(),
                computer_level=race.computer_level,
                public=False,
            )
            store.change_race(session, race.id, "finished", next_race_id=new)
            # Its lobby waits for its racers: its opener starts it, full as it is.
            for racer in racers:
                values = {
                    "name": racer.name,
                    "computer": racer.computer,
                    **racer.credential._asdict(),
                }
                self._add(session, new, values, start_when_full=False)
            publish(session, race.id, "rematch", RematchEvent(next_race=new))
            return new, True

        async def prepare(_: PlayerRecord | None) -> Callable[[Session], Answer]:
            def write(session: Session) -> Answer:
                new, opened = opened_by(session)
                race = self._race_out(session, new, str(new), credential)
                headers = {"Location": f"/races/{new}"}
                # Rendered for a credential (a racer's own token once its game is dealt).
                return Answer(201 if opened else 200, _json(race), headers, secret=True)

            return write

        digest = credential_digest(credential) if credential is not None else None
        return await self.requests.run(
            idempotency_key,
            f"race:{race_uuid.hex}",
            lambda: fingerprint("POST", f"/races/{race_uuid.hex}/rematch", {"by": digest}),
            f"/races/{race_id}/rematch",
            prepare,
            _account_check(credential),
        )

    # ------------------------------------------------------------ the open races

    async def open_races(self, limit: int, cursor: str | None) -> OpenRaces:
        """A page of the public races in their lobby with a free seat, newest first."""
        rows, next_cursor = await self.database.read(
            lambda session: open_list.page(session, self.cursor_secret, limit, cursor)
        )
        return OpenRaces(races=[open_out(row) for row in rows], next_cursor=next_cursor)

    async def open_stream(self, position: str | None, address: str) -> AsyncIterator[bytes]:
        """The open races' stream from ``position`` (``422`` for no event's id), then as the
        list changes (:mod:`api.races.open_list`); the stream caps of every stream."""
        open_list.parse_position(position)
        return await self.events.topic_stream(OPEN_KEY, self.open_topic, position, address)

    # ------------------------------------------------------------ reading

    async def read(self, race_id: str, credential: str | None) -> RaceOut:
        """A race: its racers' counts, and to a racer's credential its own game."""
        race_uuid = parse_race_id(race_id)
        return await self.database.read(
            lambda session: self._race_out(session, race_uuid, race_id, credential)
        )

    def _race_out(
        self, session: Executor, race_uuid: uuid.UUID, race_id: str, credential: str | None
    ) -> RaceOut:
        """:meth:`read`, in ``session`` (a write's, whose answer it is)."""
        page = existing_race(store.race_page(session, race_uuid), race_id)
        racers = store.get_racers(session, race_uuid)
        summaries = games_of(session, racers)
        you = _you(session, racers, credential)
        over = page["status"] == "finished"
        if over:
            racers.sort(key=lambda racer: racer.rank or 0)
        mine = None
        if you and you.game_id and credential and page["status"] in ("running", "finished"):
            mine = YourGame(id=you.game_id, token=credential)
        out = [racer_out(racer, game_of(summaries, racer), over) for racer in racers]
        reveal = self.reveal(race_uuid) if over else None
        return RaceOut.model_validate(
            page
            | {"racers": out, "you": you.number if you else None}
            | {"your_game": mine, "reveal": reveal}
        )

    def reveal(self, race_id: uuid.UUID) -> DeckReveal:
        """The race's deal: its deck and salt (shown once the race is over)."""
        shared = deal_of(self.secret, race_id)
        return DeckReveal(deck=list(shared.deck), salt=shared.salt)

    async def run(self) -> None:
        """The races' ticker (:mod:`api.races.ticker`), until cancelled."""
        await self.ticker.run()

    async def stream(
        self, race_id: str, position: str | None, address: str
    ) -> AsyncIterator[bytes]:
        """The race's stream from ``position`` (the id of the last event a watcher received:
        ``422`` for anything else), then as it changes (:mod:`api.races.stream`); ``404`` for
        no such race, and the stream caps of every stream."""
        race_uuid = parse_race_id(race_id)
        parse_position(position)
        return await self.events.topic_stream(race_uuid, self.topic, position, address)

    def _created(
        self, session: Session, race_id: uuid.UUID, token: str | None, key: str | None
    ) -> Answer:
        """A racer's entry as answered (and stored for its replays, sealed: it carries the
        guest's racer token), rendered in the entry's own transaction."""
        race = self._race_out(session, race_id, str(race_id), token or key)
        created = RaceCreated(**race.model_dump(), racer_token=token)
        return Answer(201, _json(created), {"Location": f"/races/{race_id}"}, secret=True)

    async def of_player(self, name: str) -> PlayerRaces:
        """A player's race figures and their last 100 races (404 for no such player)."""

        def read(session: Executor) -> PlayerRaces:
            player_id = find_player(session, name).id
            rows = store.player_races(session, player_id, 100)
            played, won = store.race_counts(session, player_id)
            races = [PlayerRaceOut.model_validate(row) for row in rows]
            return PlayerRaces(races_played=played, races_won=won, races=races)

        return await self.database.read(read)


# ---------------------------------------------------------------- shared steps


def _json(model: RaceOut) -> bytes:
    return model.model_dump_json().encode()


def _entry_fingerprint(path: str, body: RacerIn, key: str | None) -> str:
    """What makes two entries into races "the same request": the body, and the account of
    the key (the same Idempotency-Key sent with another key, or none, is another request)."""
    by = credential_digest(key) if key is not None else None
    return fingerprint("POST", path, {"body": body.model_dump(mode="json"), "by": by})


def _account_check(credential: str | None) -> Callable[[Session], PlayerRecord | None] | None:
    """What a replay needs, as the first request did: an account's key still accepted (one
    retired since is refused, not replayed to). A guest's racer token is checked by the work
    itself, and a replay is only ever made to the same credential (the fingerprint)."""
    if credential is None or player_key_id(credential) is None:
        return None
    return lambda session: authenticate(session, credential)


def _opener(racers: list[Racer]) -> Racer | None:
    """Who may start the race: the first person to have joined who is still in it."""
    return next((racer for racer in racers if not racer.computer), None)


def _you(session: Executor, racers: list[Racer], credential: str | None) -> Racer | None:
    """The racer whose credential this is: an account's key (checked: ``403`` if it is not
    its current key), or a guest's racer token."""
    if credential is None:
        return None
    if player_key_id(credential) is not None:
        account = authenticate(session, credential).id
        return next((racer for racer in racers if racer.credential.player_id == account), None)
    return next(
        (
            racer
            for racer in racers
            if (hashed := racer.credential.token_hash) is not None
            and token_matches(credential, hashed)
        ),
        None,
    )
