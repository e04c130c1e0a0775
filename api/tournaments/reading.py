"""The tournaments' reads: a tournament (and its entrant's own view), the listing and the
archive, the standings, a player's tournaments. :class:`TournamentReads` is the base of
:class:`api.tournaments.service.TournamentService`, which adds the writes."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from sqlalchemy import Row

from api.accounts import authenticate, find_player
from api.core.clock import now
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.days import shared_deal
from api.core.errors import InvalidCursor
from api.core.schemas import DeckReveal
from api.core.secrets import hash_token, player_key_id
from api.games import GameService
from api.tournaments import standings_store, store
from api.tournaments.errors import TournamentStarted
from api.tournaments.ids import existing_tournament, parse_tournament_id
from api.tournaments.schemas import (
    STATUSES,
    PlayerTournamentOut,
    PlayerTournaments,
    Standings,
    TournamentOut,
    TournamentPage,
    Winner,
    YourEntry,
)
from api.tournaments.store import Standing, Terms
from api.tournaments.stream import entry_out, ranks_of


def deal_of(secret: bytes, tournament_id: uuid.UUID, number: int) -> tuple[str, str, list[str]]:
    """A tournament's deal ``number``: its seed, salt and deck (the seed never leaves)."""
    shared = shared_deal(secret, "tournament", f"{tournament_id}:{number}")
    return shared.seed, shared.salt, list(shared.deck)


class TournamentReads:
    """What anyone reads of the tournaments; each method one unit of work."""

    def __init__(
        self, database: Database, games: GameService, secret: bytes, cursor_secret: bytes
    ) -> None:
        self.database = database
        self.games = games
        self.secret = secret
        self.cursor_secret = cursor_secret

    # ------------------------------------------------------------ reading

    async def read(self, raw_id: str, credential: str | None) -> TournamentOut:
        tournament_id = parse_tournament_id(raw_id)
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
        tournament = existing_tournament(
            store.shown_tournament(session, tournament_id), tournament_id
        )
        you = None
        if credential is not None:
            entrant = entrant_of(session, tournament_id, credential)
            if entrant is not None:
                you = self._your_entry(session, tournament, entrant)
        return self._outs(session, [tournament], you)[0]

    def _outs(
        self,
        session: Executor,
        tournaments: list[Row[Any]],
        you: YourEntry | None = None,
    ) -> list[TournamentOut]:
        ids = [each.id for each in tournaments]
        committed = store.commitments(session, ids) if ids else {}
        finished = [each.id for each in tournaments if each.status == "finished"]
        won = standings_store.winners(session, finished) if finished else {}
        return [
            TournamentOut(
                id=each.id,
                name=each.name,
                status=each.status,
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

    def reveal(self, tournament: Row[Any]) -> list[DeckReveal]:
        """Each deal's deck and salt (shown once the tournament has ended)."""
        revealed = []
        for number in range(1, tournament.deals + 1):
            _, salt, deck = deal_of(self.secret, tournament.id, number)
            revealed.append(DeckReveal(deck=deck, salt=salt))
        return revealed

    def _your_entry(
        self, session: Executor, tournament: Terms | Row[Any], entrant: Standing
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
        rank = (
            standings_store.count_ahead(
                session, tournament.id, standings_store.key_of(entrant), strictly=True
            )
            + 1
        )
        finished = tournament.status == "finished"
        base = entry_out(entrant, rank, [game.game_id for game in played] if finished else None)
        return YourEntry(**base.model_dump(), next_deal=next_deal, current_game=current)

    # ------------------------------------------------------------ standings

    async def standings(
        self, raw_id: str, cursor: str | None, limit: int, around: str | None
    ) -> Standings:
        tournament_id = parse_tournament_id(raw_id)
        after: store.StandingKey | None = None
        # The rank of the previous page's last entry and how many are before it: what the
        # next page's ranks need, so that no page after the first counts the entries ahead.
        last: tuple[int, int] | None = None
        if cursor is not None:
            fields = open_cursor(self.cursor_secret, cursor)
            try:
                assert fields is not None and fields[0] == f"standings:{tournament_id}"
                score, cards, finished, number, rank, before = fields[1:]
                after = (
                    int(score),
                    int(cards),
                    None if finished is None else datetime.fromisoformat(finished),
                    int(number),
                )
                last = (int(rank), int(before))
            except (AssertionError, TypeError, ValueError):
                raise InvalidCursor(
                    "not a cursor of this tournament's standings; start again without one"
                ) from None

        def read(session: Executor) -> Standings:
            tournament = existing_tournament(
                store.get_tournament(session, tournament_id), tournament_id
            )
            found = None
            if around is not None and after is None:
                found = store.entrant_named(session, tournament_id, around)
            # The page's first entry's rank and how many are before it, when known.
            first: tuple[int, int] | None = None
            if found is not None:
                # Half a page before the entrant, read backwards from it, and the rest from
                # it on; its first rank is counted (the one count of an `around` page).
                key = standings_store.key_of(found)
                rows = standings_store.standings_before(
                    session, tournament_id, key, limit=limit // 2
                )
                rows += standings_store.standings_from(
                    session, tournament_id, key, limit=limit - len(rows) + 1
                )
            else:
                rows = standings_store.standings(
                    session, tournament_id, after=after, limit=limit + 1
                )
                if after is None:
                    first = (1, 0)  # the top: nobody is ahead of it
                elif last is not None and rows:
                    # Tied with the previous page's last entry: its rank; else one more than
                    # the entries before it, which are the last one's and the last one.
                    before = last[1] + 1
                    same = standings_store.key_of(rows[0])[:3] == after[:3]
                    first = (last[0] if same else before + 1, before)
            more = len(rows) > limit
            rows = rows[:limit]
            if rows and first is None:
                strictly, before = standings_store.counts_ahead(
                    session, tournament_id, standings_store.key_of(rows[0])
                )
                first = (strictly + 1, before)
            ranks = ranks_of(session, tournament_id, rows, first=first)
            following = None
            if more and first is not None:
                score, cards, finished, number = standings_store.key_of(rows[-1])
                fields = [
                    f"standings:{tournament_id}",
                    score,
                    cards,
                    finished.isoformat() if finished else None,
                    number,
                    ranks[-1],
                    first[1] + len(rows) - 1,
                ]
                following = seal_cursor(self.cursor_secret, fields)
            finished_ = tournament.status == "finished"
            page = [row.number for row in rows]
            games = games_by_entrant(session, tournament_id, page) if finished_ and page else {}
            entries = [
                entry_out(row, rank, games.get(row.number, []) if finished_ else None)
                for row, rank in zip(rows, ranks, strict=True)
            ]
            return Standings(
                status="final" if finished_ else "provisional",
                entries=entries,
                next=following,
                total=tournament.entrants,  # its counter, kept with each join and leave
            )

        return await self.database.read(read)

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
            rows = standings_store.player_tournaments(session, player_id, after, limit + 1)
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


def require_announced(tournament: Terms, what: str) -> None:
    if tournament.status != "announced":
        raise TournamentStarted(
            f"the tournament is {tournament.status}: it is {what} only before its start"
        )


def state_of(tournament: Terms) -> str:
    if tournament.status == "running" and now() >= tournament.ends_at:
        return "over"
    return tournament.status


def entrant_of(session: Executor, tournament_id: uuid.UUID, credential: str) -> Standing | None:
    """The entrant whose credential this is: an account's key (checked: ``401``/``403`` if
    it is no current key), or a guest entrant's token."""
    if player_key_id(credential) is not None:
        account = authenticate(session, credential).id
        return store.entrant_of_player(session, tournament_id, account)
    return store.entrant_of_token(session, tournament_id, hash_token(credential))


def games_by_entrant(
    session: Executor, tournament_id: uuid.UUID, page: list[int] | None = None
) -> dict[int, list[uuid.UUID]]:
    """Each entrant's games (only the ``page``'s: a final page read all 50,000 at 10,000
    entrants, bench/tournament_load.py)."""
    found: dict[int, list[uuid.UUID]] = {}
    for game in store.games_of(session, tournament_id, of=page or ()):
        found.setdefault(game.entrant, []).append(game.game_id)
    return found
