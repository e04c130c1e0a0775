"""Tournaments: the same committed deals for every entrant, each played once, in order, in
an ordinary game through the games' one way of making a game, sealed until the tournament
ends (:meth:`api.games.GameService.start` with a shared deal and the end as its deadline).

A tournament's deals are pure functions of the service's secret and its id
(``tournament:<id>:<number>``, :func:`api.core.days.shared_deal`): only their commitments
are stored, published from the announcement; the decks and salts are computed again to
reveal them once it has ended.

Its progress is its entrants' rows: a deal's end updates its entrant's standing in the
game's own transaction (:mod:`api.tournaments.ticker`'s hook, the games' last stage), and
its rare events (a join, a leave, a deal finished, the standings, the start, the end, the
final standings) are written in order under the tournament's row, as a race's are; the
stream (:mod:`api.tournaments.stream`) sends them. What happens without a request (the
start, the end, the final standings once the fair-play review has had its word) is the
ticker's, claimed in the database so each replica may run it.

Lock order: whatever takes the tournament's row takes it last. A game's end reaches it
through the games' hooks after the player's figures and the boards; so leaving with a game
in progress ends that game first, and the ticker's end ends the games before it claims the
tournament (:mod:`api.tournaments.ticker`).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from api.accounts import (
    Identity,
    MissingToken,
    PlayerRecord,
    authenticate,
    identify,
)
from api.core.clock import now
from api.core.database import Database
from api.core.days import shared_deal
from api.core.names import same_name
from api.core.secrets import hash_token, new_token, player_key_id
from api.events import EventService
from api.fairplay import Moderators
from api.games import GameService
from api.idempotency import Answer, IdempotentRequests, credential_digest, fingerprint
from api.tournaments import standings_store, store
from api.tournaments.errors import (
    AllDealsPlayed,
    AlreadyEntered,
    DealInProgress,
    EntrantLeft,
    GuestsNotAllowed,
    InvalidTournament,
    NotAnEntrant,
    TournamentFull,
    TournamentNotOpen,
    TournamentNotRunning,
)
from api.tournaments.ids import existing_tournament, parse_tournament_id
from api.tournaments.reading import (
    TournamentReads,
    entrant_of,
    require_announced,
    state_of,
)
from api.tournaments.schemas import (
    CancelledEvent,
    DealDealt,
    EntrantIn,
    EntryEvent,
    Joined,
    TimesEvent,
    TournamentCreate,
    TournamentOut,
    TournamentPatch,
)
from api.tournaments.settings import TournamentSettings
from api.tournaments.store import Standing
from api.tournaments.stream import (
    TournamentTopic,
    entry_out,
    locked,
    parse_position,
    publish,
    publish_standings,
)
from api.tournaments.ticker import TournamentTicker, start_due


@dataclass(frozen=True)
class TournamentSpec:
    """What makes a tournament: an operator's, or a schedule's occurrence."""

    name: str
    starts_at: datetime
    ends_at: datetime
    deals: int
    guests: bool = False
    max_entrants: int | None = None


def _commitments(secret: bytes, tournament_id: uuid.UUID, deals: int) -> list[str]:
    return [
        shared_deal(secret, "tournament", f"{tournament_id}:{number}").commitment
        for number in range(1, deals + 1)
    ]


def announce(
    session: Session,
    secret: bytes,
    spec: TournamentSpec,
    schedule_id: uuid.UUID | None = None,
) -> uuid.UUID | None:
    """Insert the tournament, its committed deals and its ``announced`` event in the session's
    transaction; None if that schedule's occurrence at ``spec.starts_at`` exists already.
    A start already past makes it ``running`` at once (its ``started`` event too); ``422
    invalid_tournament`` if it does not end after it starts."""
    if spec.ends_at <= spec.starts_at:
        raise InvalidTournament("the tournament must end after it starts")
    at = now()
    tournament_id = uuid.uuid4()
    started = spec.starts_at <= at
    record = {
        "id": tournament_id,
        "name": spec.name,
        "status": "running" if started else "announced",
        "starts_at": spec.starts_at,
        "ends_at": spec.ends_at,
        "deals": spec.deals,
        "guests": spec.guests,
        "max_entrants": spec.max_entrants,
        "entrants": 0,
        "events": 0,
        "schedule_id": schedule_id,
        "created_at": at,
    }
    if not store.insert_tournament(session, record):
        return None
    store.insert_deals(session, tournament_id, _commitments(secret, tournament_id, spec.deals))
    times = TimesEvent(starts_at=spec.starts_at, ends_at=spec.ends_at)
    publish(session, tournament_id, "announced", times)
    if started:
        publish(session, tournament_id, "started", times)
    return tournament_id


class TournamentService(TournamentReads):
    """Tournaments; each method owns its units of work. ``run`` is the ticker; the reads are
    :class:`api.tournaments.reading.TournamentReads`'."""

    def __init__(
        self,
        database: Database,
        games: GameService,
        events: EventService,
        requests: IdempotentRequests,
        secret: bytes,
        cursor_secret: bytes,
        moderators: Moderators,
        settings: TournamentSettings,
    ) -> None:
        super().__init__(database, games, secret, cursor_secret)
        self.events = events
        self.requests = requests
        self.moderators = moderators
        self.topic = TournamentTopic(database)
        self.ticker = TournamentTicker(database, games, secret, settings)

    # ------------------------------------------------------------ the operators'

    async def create(self, key: str | None, body: TournamentCreate) -> TournamentOut:
        """An operator's new tournament (``403 not_a_moderator`` for another key)."""
        self.moderators.who(key)
        spec = TournamentSpec(
            body.name, body.starts_at, body.ends_at, body.deals, body.guests, body.max_entrants
        )
        if spec.ends_at <= now():
            raise InvalidTournament("the tournament must end in the future")

        def write(session: Session) -> TournamentOut:
            created = announce(session, self.secret, spec)
            assert created is not None  # no schedule: nothing to conflict with
            return self._out(session, created, None)

        return await self.database.write(write)

    async def edit(self, key: str | None, raw_id: str, patch: TournamentPatch) -> TournamentOut:
        """Change an announced tournament (``409 tournament_started`` once it has started);
        new ``deals`` are committed anew."""
        self.moderators.who(key)
        tournament_id = parse_tournament_id(raw_id)
        given = patch.model_fields_set

        def write(session: Session) -> TournamentOut:
            tournament = locked(session, tournament_id)
            require_announced(tournament, "edited")
            values = {name: getattr(patch, name) for name in given}
            for required in ("name", "starts_at", "ends_at", "deals", "guests"):
                if required in values and values[required] is None:
                    raise InvalidTournament(f"{required!r} cannot be null")
            merged = tournament._replace(**values)
            if merged.ends_at <= merged.starts_at:
                raise InvalidTournament("the tournament must end after it starts")
            if merged.ends_at <= now():
                raise InvalidTournament("the tournament must end in the future")
            if not values:
                return self._out(session, tournament_id, None)
            store.change_tournament(session, tournament_id, "announced", **values)
            if "deals" in values and values["deals"] != tournament.deals:
                store.delete_deals(session, tournament_id)
                commitments = _commitments(self.secret, tournament_id, merged.deals)
                store.insert_deals(session, tournament_id, commitments)
            times = TimesEvent(starts_at=merged.starts_at, ends_at=merged.ends_at)
            publish(session, tournament_id, "announced", times)
            if merged.starts_at <= now():
                store.change_tournament(session, tournament_id, "announced", status="running")
                publish(session, tournament_id, "started", times)
            return self._out(session, tournament_id, None)

        return await self.database.write(write)

    async def cancel(self, key: str | None, raw_id: str) -> TournamentOut:
        """Cancel an announced tournament (``409 tournament_started`` once it has started);
        its entrants are told on its stream."""
        self.moderators.who(key)
        tournament_id = parse_tournament_id(raw_id)

        def write(session: Session) -> TournamentOut:
            tournament = locked(session, tournament_id)
            require_announced(tournament, "cancelled")
            at = now()
            store.change_tournament(
                session, tournament_id, "announced", status="cancelled", cancelled_at=at
            )
            publish(session, tournament_id, "cancelled", CancelledEvent(cancelled_at=at))
            return self._out(session, tournament_id, None)

        return await self.database.write(write)

    # ------------------------------------------------------------ entering and leaving

    async def join(
        self,
        raw_id: str,
        body: EntrantIn,
        key: str | None,
        idempotency_key: str | None = None,
    ) -> tuple[Answer, bool]:
        """Enter a tournament while it is announced or running: an account with its key, or
        a guest by name where it takes guests. The answer (``201``, with a guest's token),
        and whether it is a replay of the same request under the same ``Idempotency-Key``."""
        tournament_id = parse_tournament_id(raw_id)

        async def prepare(_: PlayerRecord | None) -> Callable[[Session], Answer]:
            def write(session: Session) -> Answer:
                return self._join(session, tournament_id, body, key)

            return write

        def request_fingerprint() -> str:
            by = credential_digest(key) if key is not None else None
            path = f"/tournaments/{tournament_id}/entrants"
            return fingerprint("POST", path, {"body": body.model_dump(mode="json"), "by": by})

        check = None
        if key is not None and player_key_id(key) is not None:
            check = lambda session: authenticate(session, key)  # noqa: E731
        return await self.requests.run(
            idempotency_key,
            f"tournament:{tournament_id.hex}",
            request_fingerprint,
            f"/tournaments/{raw_id}/entrants",
            prepare,
            check,
        )

    def _join(
        self, session: Session, tournament_id: uuid.UUID, body: EntrantIn, key: str | None
    ) -> Answer:
        tournament = locked(session, tournament_id)
        if tournament.status not in ("announced", "running") or now() >= tournament.ends_at:
            raise TournamentNotOpen(
                f"the tournament is {state_of(tournament)}: entrants join it while it is "
                "announced or running"
            )
        if key is None and not tournament.guests:
            raise GuestsNotAllowed(
                "this tournament takes accounts only: register a name and join with its key"
            )
        who = identify(session, key, body.name)
        if (
            who.player_id is not None
            and store.entrant_of_player(session, tournament_id, who.player_id) is not None
        ):
            raise AlreadyEntered(f"{who.name!r} is an entrant of this tournament already")
        names = store.entrant_names(session, tournament_id)
        if any(same_name(name, who.name) for name in names):
            raise AlreadyEntered(
                f"{who.name!r} is, or looks like, the name of an entrant of this tournament: "
                "enter under another"
            )
        if tournament.max_entrants is not None and tournament.entrants >= tournament.max_entrants:
            raise TournamentFull(f"the tournament has its {tournament.max_entrants} entrants")
        token = None if who.player_id is not None else new_token()
        entrant = Standing(
            number=store.last_number(session, tournament_id) + 1,
            name=who.name,
            player_id=who.player_id,
            left_at=None,
            deals_played=0,
            score=0,
            cards=0,
            finished_at=None,
            place=None,
        )
        token_hash = hash_token(token) if token else None
        new = entrant._asdict() | {"token_hash": token_hash, "joined_at": now()}
        store.insert_entrant(session, tournament_id, new)
        rank = (
            standings_store.count_ahead(
                session, tournament_id, standings_store.key_of(entrant), strictly=True
            )
            + 1
        )
        publish(session, tournament_id, "joined", EntryEvent(entry=entry_out(entrant, rank)))
        publish_standings(session, tournament_id)
        refreshed = existing_tournament(store.get_tournament(session, tournament_id), tournament_id)
        joined = Joined(entry=self._your_entry(session, refreshed, entrant), token=token)
        headers = {"Location": f"/tournaments/{tournament_id}"}
        return Answer(201, joined.model_dump_json().encode(), headers, secret=True)

    async def leave(self, raw_id: str, credential: str | None) -> None:
        """Leave: before the start the entry goes; while it runs it stays in the standings
        with what it has, ``left``, its game in progress ended (lost) and no more deals."""
        tournament_id = parse_tournament_id(raw_id)
        if credential is None:
            raise MissingToken("send your key, or your tournament token, as a bearer credential")

        def write(session: Session) -> None:
            # The game in progress ends first (its end takes the tournament's row last, as
            # every game's end does), then the tournament is locked.
            entrant = entrant_of(session, tournament_id, credential)
            tournament = existing_tournament(
                store.get_tournament(session, tournament_id), tournament_id
            )
            if entrant is None:
                raise NotAnEntrant("this credential is no entrant's of the tournament")
            if tournament.status == "running" and entrant.left_at is None:
                played = store.games_of(session, tournament_id, entrant.number)
                if played:
                    self.games.end(session, [played[-1].game_id])
            tournament = locked(session, tournament_id)
            entrant = entrant_of(session, tournament_id, credential)
            assert entrant is not None  # entries go only under the row held now
            if tournament.status == "announced":
                store.delete_entrant(session, tournament_id, entrant.number)
            elif tournament.status == "running":
                if entrant.left_at is not None:
                    return
                store.set_entrant(session, tournament_id, entrant.number, left_at=now())
                entrant = entrant._replace(left_at=now())
            else:
                raise TournamentNotOpen(
                    f"the tournament is {state_of(tournament)}: entrants leave it while it is "
                    "announced or running"
                )
            publish(session, tournament_id, "left", EntryEvent(entry=entry_out(entrant, None)))
            publish_standings(session, tournament_id)

        await self.database.write(write)

    # ------------------------------------------------------------ playing

    async def play(self, raw_id: str, credential: str | None) -> DealDealt:
        """Deal the entrant its next deal: an ordinary game, sealed until the tournament
        ends, its deadline the tournament's end."""
        tournament_id = parse_tournament_id(raw_id)
        if credential is None:
            raise MissingToken("send your key, or your tournament token, as a bearer credential")

        def write(session: Session) -> DealDealt:
            # Deals of many entrants at once share the tournament's row (FOR SHARE): none
            # waits for another, and its end (FOR UPDATE) waits for the deals under way. Its
            # start, if due and not made yet, takes the row itself: started here.
            tournament = existing_tournament(
                store.get_tournament(session, tournament_id), tournament_id
            )
            if tournament.status == "announced":
                tournament = start_due(session, locked(session, tournament_id))
            else:
                tournament = existing_tournament(
                    store.get_tournament(session, tournament_id, share=True), tournament_id
                )
            entrant = entrant_of(session, tournament_id, credential)
            if entrant is None:
                raise NotAnEntrant("this credential is no entrant's of the tournament: join it")
            # A guest's token plays its games (found by its hash: that hash is the row's);
            # an account's entrant has no token (join gives one to guests only).
            guest = player_key_id(credential) is None
            token_hash = hash_token(credential) if guest else None
            if tournament.status != "running" or now() >= tournament.ends_at:
                when = (
                    f"starts at {tournament.starts_at.isoformat()}"
                    if tournament.status == "announced"
                    else f"is {state_of(tournament)}"
                )
                raise TournamentNotRunning(f"the tournament {when}: deals are played while it runs")
            if entrant.left_at is not None:
                raise EntrantLeft("you left this tournament: you play no more of its deals")
            played = store.games_of(session, tournament_id, entrant.number)
            if played:
                last = played[-1]
                if self.games.summaries(session, [last.game_id])[last.game_id].status == (
                    "in_progress"
                ):
                    raise DealInProgress(f"deal {last.deal} is in progress: finish its game first")
            number = len(played) + 1
            if number > tournament.deals:
                raise AllDealsPlayed(
                    f"all {tournament.deals} deals are played: each deal is played once"
                )
            shared = shared_deal(self.secret, "tournament", f"{tournament_id}:{number}")
            game = self.games.start(
                session,
                Identity(entrant.name, entrant.player_id),
                shared=shared,
                deadline=tournament.ends_at,
                token_hash=token_hash,
            )
            if not store.insert_game(session, tournament_id, entrant.number, number, game.id):
                raise DealInProgress(f"deal {number} was dealt to you just now: play its game")
            shown = game.model_dump(mode="json")
            if token_hash is not None:
                # The guest's tournament token plays it (the game has no token of its own).
                shown["token"] = credential
            return DealDealt(deal=number, game_id=game.id, game=shown)

        return await self.database.write(write)

    # ------------------------------------------------------------ the stream and the ticker

    async def stream(self, raw_id: str, position: str | None, address: str) -> AsyncIterator[bytes]:
        tournament_id = parse_tournament_id(raw_id)
        parse_position(position)
        return await self.events.topic_stream(tournament_id, self.topic, position, address)

    async def run(self) -> None:
        """The tournaments' ticker (:mod:`api.tournaments.ticker`), until cancelled."""
        await self.ticker.run()
