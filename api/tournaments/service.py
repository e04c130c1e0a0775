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
    find_player,
    identify,
)
from api.core.clock import now
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.days import shared_deal
from api.core.errors import InvalidCursor
from api.core.names import same_name
from api.core.schemas import DeckReveal
from api.core.secrets import hash_token, new_token, player_key_id
from api.events import EventService
from api.fairplay import Moderators
from api.games import GameService
from api.idempotency import Answer, IdempotentRequests, credential_digest, fingerprint
from api.tournaments import store
from api.tournaments.errors import (
    AllDealsPlayed,
    AlreadyEntered,
    DealInProgress,
    EntrantLeft,
    GuestsNotAllowed,
    InvalidTournament,
    NotAnEntrant,
    TournamentFull,
    TournamentNotFound,
    TournamentNotOpen,
    TournamentNotRunning,
    TournamentStarted,
)
from api.tournaments.schemas import (
    STATUSES,
    CancelledEvent,
    DealDealt,
    EntrantIn,
    EntryEvent,
    Joined,
    PlayerTournamentOut,
    PlayerTournaments,
    Standings,
    TimesEvent,
    TournamentCreate,
    TournamentOut,
    TournamentPage,
    TournamentPatch,
    Winner,
    YourEntry,
)
from api.tournaments.settings import TournamentSettings
from api.tournaments.store import EntrantRecord, TournamentRecord
from api.tournaments.stream import (
    TournamentTopic,
    entry_out,
    locked,
    parse_position,
    publish,
    publish_standings,
    ranks_of,
)
from api.tournaments.ticker import TournamentTicker


@dataclass(frozen=True)
class TournamentSpec:
    """What makes a tournament: an operator's, or a schedule's occurrence."""

    name: str
    starts_at: datetime
    ends_at: datetime
    deals: int
    guests: bool = False
    max_entrants: int | None = None


def deal_of(secret: bytes, tournament_id: uuid.UUID, number: int) -> tuple[str, str, list[str]]:
    """A tournament's deal ``number``: its seed, salt and deck (the seed never leaves)."""
    shared = shared_deal(secret, "tournament", f"{tournament_id}:{number}")
    return shared.seed, shared.salt, list(shared.deck)


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
    record = TournamentRecord(
        id=tournament_id,
        name=spec.name,
        status="running" if started else "announced",
        starts_at=spec.starts_at,
        ends_at=spec.ends_at,
        deals=spec.deals,
        guests=spec.guests,
        max_entrants=spec.max_entrants,
        entrants=0,
        events=0,
        schedule_id=schedule_id,
        created_at=at,
    )
    if not store.insert_tournament(session, record):
        return None
    store.insert_deals(session, tournament_id, _commitments(secret, tournament_id, spec.deals))
    times = TimesEvent(starts_at=spec.starts_at, ends_at=spec.ends_at)
    publish(session, tournament_id, "announced", times)
    if started:
        publish(session, tournament_id, "started", times)
    return tournament_id


class TournamentService:
    """Tournaments; each method owns its units of work. ``run`` is the ticker."""

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
        self.database = database
        self.games = games
        self.events = events
        self.requests = requests
        self.secret = secret
        self.cursor_secret = cursor_secret
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
        tournament_id = parse_id(raw_id)
        given = patch.model_fields_set

        def write(session: Session) -> TournamentOut:
            tournament = locked(session, tournament_id)
            _announced(tournament, "edited")
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
        tournament_id = parse_id(raw_id)

        def write(session: Session) -> TournamentOut:
            tournament = locked(session, tournament_id)
            _announced(tournament, "cancelled")
            at = now()
            store.change_tournament(
                session, tournament_id, "announced", status="cancelled", cancelled_at=at
            )
            publish(session, tournament_id, "cancelled", CancelledEvent(cancelled_at=at))
            return self._out(session, tournament_id, None)

        return await self.database.write(write)

    # ------------------------------------------------------------ reading

    async def read(self, raw_id: str, credential: str | None) -> TournamentOut:
        tournament_id = parse_id(raw_id)
        return await self.database.read(lambda s: self._out(s, tournament_id, credential))

    async def listing(
        self, statuses: list[str] | None, cursor: str | None, limit: int
    ) -> TournamentPage:
        """Tournaments of ``statuses`` (default: announced and running, the soonest start
        first; only ``finished`` and ``cancelled``: the archive, the latest end first)."""
        chosen = sorted(set(statuses or ["announced", "running"]), key=STATUSES.index)
        archive = set(chosen) <= {"finished", "cancelled"}
        scope = ",".join(chosen)
        after = None
        if cursor is not None:
            fields = open_cursor(self.cursor_secret, cursor)
            if fields is None or len(fields) != 3 or fields[0] != f"tournaments:{scope}":
                raise InvalidCursor("not a cursor of this tournaments listing; start again")
            try:
                after = (datetime.fromisoformat(fields[1]), uuid.UUID(fields[2]))
            except (TypeError, ValueError):
                raise InvalidCursor("not a cursor of this tournaments listing") from None

        def read(session: Executor) -> TournamentPage:
            rows = store.list_tournaments(session, chosen, archive, after, limit + 1)
            following = None
            if len(rows) > limit:
                last = rows[limit - 1]
                at = last.ends_at if archive else last.starts_at
                following = seal_cursor(
                    self.cursor_secret, [f"tournaments:{scope}", at.isoformat(), str(last.id)]
                )
            outs = self._outs(session, rows[:limit])
            return TournamentPage(tournaments=outs, next=following)

        return await self.database.read(read)

    def _out(
        self, session: Executor, tournament_id: uuid.UUID, credential: str | None
    ) -> TournamentOut:
        tournament = existing(store.get_tournament(session, tournament_id), tournament_id)
        you = None
        if credential is not None:
            entrant = _entrant_of(session, tournament_id, credential)
            if entrant is not None:
                you = self._your_entry(session, tournament, entrant)
        return self._outs(session, [tournament], you)[0]

    def _outs(
        self,
        session: Executor,
        tournaments: list[TournamentRecord],
        you: YourEntry | None = None,
    ) -> list[TournamentOut]:
        ids = [each.id for each in tournaments]
        committed = store.commitments(session, ids) if ids else {}
        finished = [each.id for each in tournaments if each.status == "finished"]
        won = store.winners(session, finished) if finished else {}
        return [
            TournamentOut(
                id=each.id,
                name=each.name,
                status=each.status,  # type: ignore[arg-type]
                starts_at=each.starts_at,
                ends_at=each.ends_at,
                deals=each.deals,
                guests=each.guests,
                max_entrants=each.max_entrants,
                entrants=each.entrants,
                schedule_id=each.schedule_id,
                created_at=each.created_at,
                finished_at=each.finished_at,
                commitments=committed.get(each.id, []),
                reveal=self.reveal(each) if each.status in ("ending", "finished") else None,
                winners=[Winner(place=p, name=n) for p, n in won.get(each.id, [])],
                you=you,
            )
            for each in tournaments
        ]

    def reveal(self, tournament: TournamentRecord) -> list[DeckReveal]:
        """Each deal's deck and salt (shown once the tournament has ended)."""
        revealed = []
        for number in range(1, tournament.deals + 1):
            _, salt, deck = deal_of(self.secret, tournament.id, number)
            revealed.append(DeckReveal(deck=deck, salt=salt))
        return revealed

    def _your_entry(
        self, session: Executor, tournament: TournamentRecord, entrant: EntrantRecord
    ) -> YourEntry:
        played = store.games_of(session, tournament.id, entrant.number)
        current = None
        if played:
            last = played[-1].game_id
            if self.games.summaries(session, [last])[last].status == "in_progress":
                current = last
        open_ = tournament.status == "running" and now() < tournament.ends_at
        following = len(played) + 1
        next_deal = (
            following
            if open_
            and current is None
            and entrant.left_at is None
            and following <= tournament.deals
            else None
        )
        rank = store.count_ahead(session, tournament.id, store.key_of(entrant), strictly=True) + 1
        finished = tournament.status == "finished"
        base = entry_out(entrant, rank, [game.game_id for game in played] if finished else None)
        return YourEntry(**base.model_dump(), next_deal=next_deal, current_game=current)

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
        tournament_id = parse_id(raw_id)

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
                f"the tournament is {_state(tournament)}: entrants join it while it is "
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
        entrant = EntrantRecord(
            number=store.last_number(session, tournament_id) + 1,
            name=who.name,
            player_id=who.player_id,
            token_hash=hash_token(token) if token else None,
            joined_at=now(),
            left_at=None,
            deals_played=0,
            score=0,
            cards=0,
            finished_at=None,
            place=None,
        )
        store.insert_entrant(session, tournament_id, entrant)
        rank = store.count_ahead(session, tournament_id, store.key_of(entrant), strictly=True) + 1
        publish(session, tournament_id, "joined", EntryEvent(entry=entry_out(entrant, rank)))
        publish_standings(session, tournament_id)
        refreshed = existing(store.get_tournament(session, tournament_id), tournament_id)
        joined = Joined(entry=self._your_entry(session, refreshed, entrant), token=token)
        headers = {"Location": f"/tournaments/{tournament_id}"}
        return Answer(201, joined.model_dump_json().encode(), headers, secret=True)

    async def leave(self, raw_id: str, credential: str | None) -> None:
        """Leave: before the start the entry goes; while it runs it stays in the standings
        with what it has, ``left``, its game in progress ended (lost) and no more deals."""
        tournament_id = parse_id(raw_id)
        if credential is None:
            raise MissingToken("send your key, or your tournament token, as a bearer credential")

        def write(session: Session) -> None:
            # The game in progress ends first (its end takes the tournament's row last, as
            # every game's end does), then the tournament is locked.
            entrant = _entrant_of(session, tournament_id, credential)
            tournament = existing(store.get_tournament(session, tournament_id), tournament_id)
            if entrant is None:
                raise NotAnEntrant("this credential is no entrant's of the tournament")
            if tournament.status == "running" and entrant.left_at is None:
                played = store.games_of(session, tournament_id, entrant.number)
                if played:
                    self.games.end(session, [played[-1].game_id])
            tournament = locked(session, tournament_id)
            entrant = _entrant_of(session, tournament_id, credential)
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
                    f"the tournament is {_state(tournament)}: entrants leave it while it is "
                    "announced or running"
                )
            publish(session, tournament_id, "left", EntryEvent(entry=entry_out(entrant, None)))
            publish_standings(session, tournament_id)

        await self.database.write(write)

    # ------------------------------------------------------------ playing

    async def play(self, raw_id: str, credential: str | None) -> DealDealt:
        """Deal the entrant its next deal: an ordinary game, sealed until the tournament
        ends, its deadline the tournament's end."""
        tournament_id = parse_id(raw_id)
        if credential is None:
            raise MissingToken("send your key, or your tournament token, as a bearer credential")

        def write(session: Session) -> DealDealt:
            tournament = locked(session, tournament_id)
            entrant = _entrant_of(session, tournament_id, credential)
            if entrant is None:
                raise NotAnEntrant("this credential is no entrant's of the tournament: join it")
            if tournament.status != "running" or now() >= tournament.ends_at:
                when = (
                    f"starts at {tournament.starts_at.isoformat()}"
                    if tournament.status == "announced"
                    else f"is {_state(tournament)}"
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
                token_hash=entrant.token_hash,
            )
            store.insert_game(session, tournament_id, entrant.number, number, game.id)
            shown = game.model_dump(mode="json")
            if entrant.token_hash is not None:
                # The guest's tournament token plays it (the game has no token of its own).
                shown["token"] = credential
            return DealDealt(deal=number, game_id=game.id, game=shown)

        return await self.database.write(write)

    # ------------------------------------------------------------ standings

    async def standings(
        self, raw_id: str, cursor: str | None, limit: int, around: str | None
    ) -> Standings:
        tournament_id = parse_id(raw_id)
        after = None
        if cursor is not None:
            fields = open_cursor(self.cursor_secret, cursor)
            try:
                assert fields is not None and fields[0] == f"standings:{tournament_id}"
                score, cards, finished, number = fields[1:]
                after = (
                    int(score),
                    int(cards),
                    None if finished is None else datetime.fromisoformat(finished),
                    int(number),
                )
            except (AssertionError, TypeError, ValueError):
                raise InvalidCursor(
                    "not a cursor of this tournament's standings; start again without one"
                ) from None

        def read(session: Executor) -> Standings:
            tournament = existing(store.get_tournament(session, tournament_id), tournament_id)
            offset = 0
            if around is not None and after is None:
                found = store.entrant_named(session, tournament_id, around)
                if found is not None:
                    before = store.count_ahead(
                        session, tournament_id, store.key_of(found), strictly=False
                    )
                    offset = max(0, before - limit // 2)
            rows = store.standings(
                session, tournament_id, after=after, offset=offset, limit=limit + 1
            )
            following = None
            if len(rows) > limit:
                rows = rows[:limit]
                score, cards, finished, number = store.key_of(rows[-1])
                fields = [
                    f"standings:{tournament_id}",
                    score,
                    cards,
                    finished.isoformat() if finished else None,
                    number,
                ]
                following = seal_cursor(self.cursor_secret, fields)
            finished_ = tournament.status == "finished"
            numbers = [row.number for row in rows]
            games = _games_by_entrant(session, tournament_id, numbers) if finished_ else {}
            ranks = ranks_of(session, tournament_id, rows)
            entries = [
                entry_out(row, rank, games.get(row.number, []) if finished_ else None)
                for row, rank in zip(rows, ranks, strict=True)
            ]
            return Standings(
                status="final" if finished_ else "provisional",
                entries=entries,
                next=following,
                # The row's counter of its entrants, kept with each join and leave: a
                # count of them cost a tenth of a page at 10,000 entrants.
                total=tournament.entrants,
            )

        return await self.database.read(read)

    # ------------------------------------------------------------ the stream and the ticker

    async def stream(self, raw_id: str, position: str | None, address: str) -> AsyncIterator[bytes]:
        tournament_id = parse_id(raw_id)
        parse_position(position)
        return await self.events.topic_stream(tournament_id, self.topic, position, address)

    async def run(self) -> None:
        """The tournaments' ticker (:mod:`api.tournaments.ticker`), until cancelled."""
        await self.ticker.run()

    # ------------------------------------------------------------ a player's

    async def of_player(self, name: str, cursor: str | None, limit: int) -> PlayerTournaments:
        """A player's finished tournaments, the latest end first (404 for no such player)."""

        def read(session: Executor) -> PlayerTournaments:
            player_id = find_player(session, name).id
            after = None
            if cursor is not None:
                fields = open_cursor(self.cursor_secret, cursor)
                try:
                    assert fields is not None and fields[0] == f"player-tournaments:{player_id}"
                    after = (datetime.fromisoformat(fields[1]), uuid.UUID(fields[2]))
                except (AssertionError, TypeError, ValueError, IndexError):
                    raise InvalidCursor(
                        "not a cursor of this player's tournaments; start again without one"
                    ) from None
            rows = store.player_tournaments(session, player_id, after, limit + 1)
            following = None
            if len(rows) > limit:
                rows = rows[:limit]
                last = rows[-1]
                fields = [
                    f"player-tournaments:{player_id}",
                    last["ends_at"].isoformat(),
                    str(last["id"]),
                ]
                following = seal_cursor(self.cursor_secret, fields)
            listed = [PlayerTournamentOut.model_validate(row) for row in rows]
            return PlayerTournaments(tournaments=listed, next=following)

        return await self.database.read(read)


# ---------------------------------------------------------------- shared steps


def parse_id(raw: str) -> uuid.UUID:
    """A tournament id from a URL; anything that is not a UUID names no tournament."""
    try:
        return uuid.UUID(raw)
    except (ValueError, AttributeError, TypeError):
        raise TournamentNotFound(f"no tournament has the id {raw[:64]!r}") from None


def existing(found: TournamentRecord | None, tournament_id: uuid.UUID) -> TournamentRecord:
    if found is None:
        raise TournamentNotFound(f"no tournament has the id {str(tournament_id)!r}")
    return found


def _announced(tournament: TournamentRecord, what: str) -> None:
    if tournament.status != "announced":
        raise TournamentStarted(
            f"the tournament is {tournament.status}: it is {what} only before its start"
        )


def _state(tournament: TournamentRecord) -> str:
    if tournament.status == "running" and now() >= tournament.ends_at:
        return "over"
    return tournament.status


def _entrant_of(
    session: Executor, tournament_id: uuid.UUID, credential: str
) -> EntrantRecord | None:
    """The entrant whose credential this is: an account's key (checked: ``401``/``403`` if
    it is no current key), or a guest entrant's token."""
    if player_key_id(credential) is not None:
        account = authenticate(session, credential).id
        return store.entrant_of_player(session, tournament_id, account)
    return store.entrant_of_token(session, tournament_id, hash_token(credential))


def _games_by_entrant(
    session: Executor, tournament_id: uuid.UUID, numbers: list[int]
) -> dict[int, list[uuid.UUID]]:
    """The games of the entrants ``numbers`` (a page's): every entrant's made a page of the
    final standings read 50,000 rows at 10,000 entrants (bench/tournament_load.py)."""
    found: dict[int, list[uuid.UUID]] = {}
    for game in store.games_of(session, tournament_id, of=numbers):
        found.setdefault(game.entrant, []).append(game.game_id)
    return found
