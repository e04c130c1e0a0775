"""Players: registering an account, rotating a key, their pages, figures and games.

The functions that take a ``session`` are the parts other features run inside their own
unit of work (a game's creation identifies its player and counts it in their stats in the
transaction that stores it); :class:`PlayerService` is what the player routes call, and opens
a unit of work per request.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy.orm import Session

from api import accounts
from api.accounts import (
    FIRST_KEY_NAME,
    InvalidToken,
    MissingToken,
    PlayerRecord,
    Registered,
    SignedIn,
    authenticate_key,
    find_player,
    retire_previous_secret,
    signed_in,
)
from api.core.clock import today
from api.core.cursors import open_cursor, seal_cursor
from api.core.database import Database, Executor
from api.core.errors import InvalidCursor
from api.core.names import name_key
from api.games import (
    GameFacts,
    GameHooks,
    GameService,
    PlayerGameRecord,
    PlayerGamesKey,
    player_games,
)
from api.idempotency import Answer, IdempotentRequests, credential_digest, fingerprint
from api.players import store
from api.players.schemas import ChallengeStreakOut, PlayerCreated, PlayerKey, PlayerStatsOut
from api.players.streaks import challenge_streak

_CURSOR_KIND = "player_games"


@dataclass(frozen=True)
class Profile:
    player: PlayerRecord
    stats: Mapping[Any, Any]  # the stored figures, by column name (a RowMapping)
    races: tuple[int, int]  # finished, won
    streak: ChallengeStreakOut
    marked: bool = False  # by the fair-play review: all its games are off the public boards
    tournaments: dict[str, int] | None = None  # first, second, third, played


@dataclass(frozen=True)
class GamesPage:
    player: PlayerRecord
    games: list[PlayerGameRecord]
    next_cursor: str | None


# ---------------------------------------------------------------- inside another's unit of work


# ---------------------------------------------------------------- the player routes' use cases


Marked = Callable[[Executor, uuid.UUID], bool]
RaceCounts = Callable[[Executor, uuid.UUID], tuple[int, int]]  # finished, won
TournamentPlaces = Callable[[Executor, uuid.UUID], dict[str, int]]  # first, ..., played


class PlayerService:
    """Registration, key rotation, pages and games listings; each method one unit of work."""

    def __init__(
        self,
        database: Database,
        requests: IdempotentRequests,
        cursor_secret: bytes,
        marked: Marked = lambda s, p: False,
        race_counts: RaceCounts = lambda s, p: (0, 0),
        tournament_places: TournamentPlaces | None = None,
    ) -> None:
        self.database = database
        self.requests = requests
        self.cursor_secret = cursor_secret

        # Whether the fair-play review marked an account (api.fairplay, which looks players
        # up by name through this feature: handed in by the app, so that the two features
        # do not import each other).
        self.marked = marked
        # A player's races finished and won (api.races, which looks players up through the
        # accounts: handed in by the app, so that players need not know the races).
        self.race_counts = race_counts
        # A player's tournament places (api.tournaments, handed in by the app as the races'
        # counts are).
        self.tournament_places = tournament_places

    async def register(
        self, raw_name: str, key: str | None, key_name: str = FIRST_KEY_NAME
    ) -> tuple[Answer, bool]:
        """Register an account; the answer (its first key, named ``key_name``, and its
        recovery codes, shown once), and whether it is the replay of an earlier request with
        the same ``Idempotency-Key`` (``key``) and body."""

        async def prepare(_: None) -> Callable[[Session], Answer]:
            def write(session: Session) -> Answer:
                registered = register(session, raw_name, key_name)
                player = registered.player
                out = PlayerCreated(
                    name=player.name,
                    created_at=player.created_at,
                    stats=stats_out(store.NEW_FIGURES),
                    challenge_streak=challenge_streak([], today()),
                    key=registered.key,
                    recovery_codes=registered.recovery_codes,
                )
                headers = {"Location": f"/players/{player.name}"}
                return Answer(201, out.model_dump_json().encode(), headers, secret=True)

            return write

        return await self.requests.run(
            key,
            "players",
            lambda: fingerprint("POST", "/players", {"name": raw_name, "key_name": key_name}),
            "/players",
            prepare,
        )

    async def rotate_key(
        self, name: str, credential: str | None, key: str | None
    ) -> tuple[Answer, bool]:
        """Give the key signing the request (``credential``) a new secret; the answer, and
        whether it is the replay of an earlier rotation with the same ``Idempotency-Key``
        (``key``) and credential. The secret replaced keeps working until the new one is
        first used (:func:`api.accounts.rotate_key`)."""
        if credential is None:  # nothing to check, nor to claim
            raise MissingToken("send the player's current key as 'Authorization: Bearer <key>'")

        def check(session: Session) -> None:
            # A replay hands back a key, so it needs what the first request needed: a key of
            # this account still accepted (one retired since is refused, not replayed to).
            player = find_player(session, name)
            signed = signed_in(session, credential)
            if signed is None or signed.player.id != player.id:
                raise InvalidToken("this key is not this player's current key")

        async def prepare(_: None) -> Callable[[Session], Answer]:
            def write(session: Session) -> Answer:
                rotated = accounts.rotate_key(session, name, credential)
                out = PlayerKey(name=rotated.player.name, key=rotated.secret)
                return Answer(200, out.model_dump_json().encode(), secret=True)

            return write

        return await self.requests.run(
            key,
            f"player-key:{name_key(name)}",
            lambda: fingerprint("POST", "/players/key", {"by": credential_digest(credential)}),
            f"/players/{name}/key",
            prepare,
            check,
        )

    async def profile(self, name: str) -> Profile:
        return await self.database.read(
            lambda session: self._profile_of(session, find_player(session, name))
        )

    async def own_profile(self, key: str | None) -> Profile:
        """The page of the key's account: ``401 missing_token`` without a key, ``403
        invalid_token`` for a key that is no player's current key."""
        if key is None:
            raise MissingToken("send your key as 'Authorization: Bearer <key>'")

        def read(session: Executor) -> tuple[Profile, SignedIn]:
            signed = authenticate_key(session, key)
            return self._profile_of(session, signed.player), signed

        found, signed = await self.database.read(read)
        if signed.current and signed.previous_hash is not None:
            # How a client checks a new key: its first use, which retires the secret it
            # replaced (a read cannot write that itself).
            await self.database.write(lambda session: retire_previous_secret(session, signed))
        return found

    def _profile_of(self, session: Executor, player: PlayerRecord) -> Profile:
        stats = store.get_player_stats(session, player.id)
        assert stats is not None  # made with the player, removed only with it
        marked = self.marked(session, player.id)
        places = self.tournament_places(session, player.id) if self.tournament_places else None
        streak = challenge_streak(GameService.challenge_days(session, player.id), today())
        return Profile(player, stats, self.race_counts(session, player.id), streak, marked, places)

    async def games_page(
        self, name: str, status: str | None, limit: int, cursor: str | None
    ) -> GamesPage:
        """A page of a player's games, newest first, and the cursor of the next (None at the
        end)."""
        return await self.database.read(
            lambda session: self._games_page(session, name, status, limit, cursor)
        )

    def _games_page(
        self, session: Executor, name: str, status: str | None, limit: int, cursor: str | None
    ) -> GamesPage:
        player = find_player(session, name)
        secret = self.cursor_secret
        after = _decode_cursor(secret, cursor, player.id, status) if cursor else None
        rows = player_games(session, player.id, status, after, limit + 1)
        next_cursor = None
        if len(rows) > limit:
            last = rows[limit - 1]
            next_cursor = _encode_cursor(secret, player.id, status, (last.created_at, last.id))
        return GamesPage(player, rows[:limit], next_cursor)


def register(session: Session, raw_name: str, key_name: str = FIRST_KEY_NAME) -> Registered:
    """Register an account in ``session``'s transaction (and the routes' unit of work), with
    its zeroed figures."""
    registered = accounts.open_account(session, raw_name, key_name)
    store.insert_stats(session, registered.player.id)
    return registered


def stats_out(stats: Mapping[Any, Any], races: tuple[int, int] = (0, 0)) -> PlayerStatsOut:
    """A player's figures as their page shows them: the stored ones by name, and those
    computed from them."""
    played, won, lost = stats["games_played"], stats["games_won"], stats["games_lost"]
    return PlayerStatsOut(
        **{name: stats[name] for name in _SHOWN_AS_STORED},
        games_in_progress=played - won - lost,
        win_rate=won / (won + lost) if won + lost else None,
        mean_winning_score=stats["won_score_total"] / won if won else None,
        races_played=races[0],
        races_won=races[1],
    )


# The figures the page shows as the row stores them (the model's fields with a column's name).
_SHOWN_AS_STORED = tuple(name for name in PlayerStatsOut.model_fields if name in store.NEW_FIGURES)


def _encode_cursor(
    secret: bytes, player_id: uuid.UUID, status: str | None, key: PlayerGamesKey
) -> str:
    created_at, game_id = key
    return seal_cursor(
        secret, [_CURSOR_KIND, player_id.hex, status, created_at.isoformat(), game_id.hex]
    )


def _decode_cursor(
    secret: bytes, cursor: str, player_id: uuid.UUID, status: str | None
) -> PlayerGamesKey:
    invalid = InvalidCursor("not a cursor of this player's games listing; start again without one")
    fields = open_cursor(secret, cursor)
    if fields is None:
        raise invalid
    try:
        kind, player_hex, listing_status, created_at, game_hex = fields
        created = datetime.fromisoformat(created_at)
        game_id = uuid.UUID(hex=game_hex)
    except (ValueError, TypeError, AttributeError, OverflowError):
        raise invalid from None
    if (
        kind != _CURSOR_KIND
        or player_hex != player_id.hex
        or listing_status != status
        or created.tzinfo is None
    ):
        raise invalid
    return created, game_id


# ---------------------------------------------------- a player's figures follow their games


def subscribe(hooks: GameHooks) -> None:
    """Count an account's games in its stats, in the transaction that starts or ends each."""
    hooks.subscribe(
        "player stats", created=_count_started, ending=_lock_stats, ended=_count_finished
    )


def _count_started(session: Session, game: GameFacts) -> None:
    if game.player_id is not None:
        store.count_game_started(session, game.player_id, game.at)


def _lock_stats(session: Session, game: GameFacts) -> None:
    # Held until the transaction ends: a player's streaks follow the order their games end in.
    if game.player_id is not None:
        store.lock_player_stats(session, game.player_id)


def _count_finished(session: Session, game: GameFacts) -> None:
    if game.player_id is not None:
        store.count_game_finished(session, game.player_id, game.score, game.at)
