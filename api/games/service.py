"""Games: deal and store one, read one, place its cards, read its history.

Each request does its work once. A placement reads its game once (outside any write lock),
checks the token once, plays once on the engine and makes the new snapshot once; then one
write transaction stamps it (after taking the locks that order a game's end, so the time is
taken once those are held), stores it with a version-guarded ``UPDATE`` and, if it ended the
game, announces its end to the features that count games (:mod:`api.games.hooks`). The answer
is rendered from what was stored. An ``Idempotency-Key`` adds a claim before the work and
stores the rendered answer in the work's own write transaction
(:mod:`api.idempotency.service`).
"""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Callable
from datetime import date, datetime

from sqlalchemy.exc import OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.orm import Session

from api.accounts import (
    Identity,
    MissingToken,
    PlayerRecord,
    authenticate,
    identify,
    identify_account,
)
from api.core import days
from api.core.clock import now
from api.core.database import Database, Executor
from api.core.secrets import (
    player_key_id,
)
from api.games import etags, snapshot, store
from api.games.access import authorize, authorize_private_read
from api.games.dealing import (
    challenge_game_of,
    deal,
    for_identity,
    require_key,
    store_dealt,
    todays_deal,
)
from api.games.errors import VersionConflict
from api.games.expiry import plan_expiry, store_expiry
from api.games.hooks import HOOKS
from api.games.ids import existing_game, parse_game_id
from api.games.placing import placement_fingerprint, plan_placement, store_placement
from api.games.records import (
    GameRead,
    GameSummary,
    History,
    LoadedGame,
    NewGameRequest,
    decode,
    facts_of,
    game_out,
    load_game,
    placements_of,
)
from api.games.schemas import GameCreated
from api.games.snapshot import GameSnapshot
from api.games.store import GameRecord, PlacementRecord, StoredView, WonGame
from api.idempotency import Answer, IdempotentRequests, fingerprint
from engine.cards import DECK_SIZE


class GameService:
    """Games, placements and histories; each method owns its units of work."""

    def __init__(
        self, database: Database, requests: IdempotentRequests, challenge_secret: bytes
    ) -> None:
        self.database = database
        self.requests = requests
        self.challenge_secret = challenge_secret

    # ------------------------------------------------------------ creating

    async def create(self, request: NewGameRequest, key: str | None) -> tuple[Answer, bool]:
        """Deal and store a game; the answer, and whether it is the replay of an earlier
        request with the same ``Idempotency-Key`` (``key``)."""
        if request.daily:
            require_key(request.key)

        def check(session: Session) -> PlayerRecord | None:
            # A replay hands back the game's token, so it needs the account's current key,
            # like the first request: a key rotated out since is refused, not replayed to.
            return None if request.key is None else authenticate(session, request.key)

        async def prepare(account: PlayerRecord | None) -> Callable[[Session], Answer]:
            # Dealt before taking a turn to write: the write transaction only stores.
            daily = todays_deal(self.challenge_secret) if request.daily else None
            dealt = deal(Identity(request.requested or "anonymous", None), shared=daily)

            def write(session: Session) -> Answer:
                who = (
                    identify_account(account, request.requested)
                    if account is not None
                    else identify(session, request.key, request.requested)
                )
                created = store_dealt(session, for_identity(dealt, who))
                headers = {"Location": f"/games/{created.id}", "ETag": etags.etag(created.version)}
                return Answer(201, created.model_dump_json().encode(), headers, secret=True)

            return write

        return await self.requests.run(
            key, "games", lambda: _creation_fingerprint(request), "/games", prepare, check
        )

    # ------------------------------------------------------------ reading

    async def read(self, game_id: str, token: str | None) -> GameRead:
        """A game as anyone may see it; 404, or ``403 challenge_game_private`` for a daily
        challenge game of a day still open, read without its token or its player's key.

        The snapshot stored with the game if it is in the current format; otherwise (a
        format changed since it was stored, a game stored before snapshots were, or a sealed
        challenge game whose day has closed since) a new one is made from the game's state,
        and stored for the next read if the game has not moved since."""
        game_uuid = parse_game_id(game_id)

        def read(session: Executor) -> tuple[StoredView | None, int | None]:
            view = store.get_view(session, game_uuid)
            if view is None or view.status != "won":
                return view, None
            return view, HOOKS.rank(session, game_uuid, view.assisted)

        found, rank = await self.database.read(read)
        view = existing_game(found, game_id)
        sealed = days.is_sealed(view.challenge_date, view.sealed)
        if sealed:
            row = await self.database.read(lambda s: store.get_game(s, game_uuid, token))
            authorize_private_read(existing_game(row, game_id), token)
        over = view.status != "in_progress"
        current = snapshot.SEALED_FORMAT if sealed and over else snapshot.FORMAT
        if view.snapshot_format == current and view.snapshot is not None:
            return GameRead(game_out(view, snapshot.loads(view.snapshot), rank), sealed)
        return GameRead(game_out(view, await self._snapshot_again(game_uuid, sealed), rank), sealed)

    async def _snapshot_again(self, game_id: uuid.UUID, sealed: bool) -> GameSnapshot:
        row = existing_game(await self.database.read(lambda s: store.get_game(s, game_id)), game_id)
        game = decode(row)
        taken = snapshot.take(game, row.salt, sealed=sealed)
        text, format_ = snapshot.dumps(taken), snapshot.format_of(game, sealed=sealed)
        # Derived data: if the database is busy this read answers all the same, and a later
        # one stores it.
        with contextlib.suppress(OperationalError, PoolTimeoutError):
            await self.database.write(
                lambda s: store.store_snapshot(s, row.id, row.version, format_, text)
            )
        return taken

    async def history(self, game_id: str, token: str | None) -> History:
        """A game's placements in order; 404, or ``403 challenge_game_private`` as
        :meth:`read`."""
        game_uuid = parse_game_id(game_id)

        def read(session: Executor) -> tuple[list[PlacementRecord], bool]:
            placements, day, sealed = existing_game(store.get_history(session, game_uuid), game_id)
            private = days.is_sealed(day, sealed)
            if private:
                row = existing_game(store.get_game(session, game_uuid, token), game_id)
                authorize_private_read(row, token)
            return placements, private

        placements, private = await self.database.read(read)
        return History(game_uuid, placements, private)

    # ------------------------------------------------------------ placing

    async def place(
        self,
        game_id: str,
        token: str | None,
        cell: tuple[int, int],
        if_match: str | None,
        key: str | None,
    ) -> tuple[Answer, bool]:
        """Place the current card at ``cell``; the answer, and whether it is a replay."""
        game_uuid = parse_game_id(game_id)  # 404 for an id that is no UUID, before any claim
        if key is not None and token is None:  # no credential to check: nothing to claim
            raise MissingToken(
                "send the game's token or its player's key as 'Authorization: Bearer <token>'"
            )

        async def prepare(checked: GameRecord | None) -> Callable[[Session], Answer]:
            # Read and played outside any write lock: the write only stores. With a key, the
            # claim read the game and authorised the token already (``check``): played on
            # that read, as fresh as another (the write checks the version it read).
            if checked is not None:
                plan = plan_placement(checked, token, cell, if_match, authorized=True)
            else:
                row = existing_game(
                    await self.database.read(lambda s: store.get_game(s, game_uuid, token)),
                    game_id,
                )
                plan = plan_placement(row, token, cell, if_match)

            def write(session: Session) -> Answer:
                placed = store_placement(session, plan)
                headers = {"ETag": etags.etag(placed.game.version)}
                return Answer(201, placed.model_dump_json().encode(), headers)

            return write

        def check(session: Session) -> GameRecord:
            # Authorization before the key is looked at: a key used on this game answers
            # 422 idempotency_key_reused, an unused one is claimed, and either would tell
            # another player's token that the key was used (the fingerprint differs with the
            # credential). Run in the claim's transaction, so a refused request claims nothing.
            row = existing_game(store.get_game(session, game_uuid, token), game_id)
            authorize(row, token)
            return row

        return await self.requests.run(
            key,
            f"game:{game_uuid.hex}",
            lambda: placement_fingerprint(*cell, token),
            f"/games/{game_id}/placements",
            prepare,
            check,
        )

    # ------------------------------------------------------------ for hints and analyses

    async def load(
        self, game_id: str, token: str | None = None, *, player: bool = False
    ) -> LoadedGame:
        """A game as stored and its engine state, or 404; ``player``: for its player only
        (``token``: the game's token or its player's key, else 401 or 403)."""
        game_uuid = parse_game_id(game_id)
        bearer = token if player else None
        loaded = await self.database.read(lambda session: load_game(session, game_uuid, bearer))
        if player:
            authorize(loaded.row, token)
        return loaded

    async def mark_assisted(self, loaded: LoadedGame) -> int:
        """Mark a game assisted (a hint was given), bumping its version, if it is still at
        the version read; return its version."""
        row = loaded.row
        if row.assisted:
            version = await self.database.read(lambda s: store.get_version(s, row.id))
            if version != row.version:
                raise VersionConflict("the game changed while the hint was computed; ask again")
            return row.version
        # The snapshot holds nothing that being assisted changes: it stays as it is.
        if not await self.database.write(
            lambda session: store.mark_assisted(session, row.id, row.version, now())
        ):
            raise VersionConflict("the game changed while the hint was computed; ask again")
        return row.version + 1

    # ------------------------------------------------------------ in another feature's work

    @staticmethod
    def start(
        session: Session,
        player: Identity,
        *,
        shared: days.SharedDeal | None = None,
        deadline: datetime | None = None,
        token_hash: str | None = None,
    ) -> GameCreated:
        """Deal ``player`` (an account, a guest or :data:`api.accounts.COMPUTER`) a game
        and store it in ``session``'s transaction: a fresh deal, or a ``shared`` one (the
        day's challenge, or a race's, sealed until :meth:`reveal`). ``deadline``: no
        placement is stored after it. ``token_hash``: the credential that plays it, if not a
        token of its own. The one way a game is made (``POST /games`` stores its deal the
        same way)."""
        dealt = deal(player, shared=shared, deadline=deadline, token_hash=token_hash)
        return store_dealt(session, dealt)

    @staticmethod
    def end(session: Session, game_ids: list[uuid.UUID]) -> int:
        """End the games of ``game_ids`` still in progress as lost (abandoned), as the expiry
        ends games left untouched: a race's time limit. How many were ended."""
        rows = [row for game_id in game_ids if (row := store.get_game(session, game_id))]
        return store_expiry(session, plan_expiry(rows, now()))

    @staticmethod
    def reveal(session: Session, game_ids: list[uuid.UUID]) -> None:
        """Make sealed games public (their race is over) and tell the subscribers of
        :attr:`api.games.hooks.GameHooks.revealed`, each with the game as it ended, by score
        (so that the locks of the boards' counts of each score are taken in one order)."""
        rows = [row for game_id in game_ids if (row := store.get_game(session, game_id))]
        store.unseal(session, [row.id for row in rows])
        revealed = []
        for row in rows:
            game = decode(row)
            at = row.finished_at or now()
            status, score = game.status.value, game.score
            revealed.append(
                facts_of(row._replace(sealed=False), game.placements_count, status, score, at)
            )
        for facts in sorted(revealed, key=lambda facts: (facts.score or -1, facts.game_id)):
            HOOKS.announce(HOOKS.revealed, session, facts)

    @staticmethod
    def summaries(session: Executor, game_ids: list[uuid.UUID]) -> dict[uuid.UUID, GameSummary]:
        """The counts of each game of ``game_ids`` (never a card), by id."""
        found = {}
        for view in store.get_views(session, game_ids):
            # Every game since races began has a snapshot of the current shape; an older
            # game (its status and flags are its columns) has no counts to show.
            current = view.snapshot_format in snapshot.CURRENT and view.snapshot is not None
            taken = snapshot.loads(view.snapshot) if current and view.snapshot else None
            found[view.id] = GameSummary(
                view.id,
                view.status,
                taken.score if taken else None,
                taken.placements_count if taken else 0,
                taken.face_down_count if taken else 0,
                taken.stock_count if taken else DECK_SIZE,
                view.finished_at,
                view.assisted,
                view.sealed,
                view.computer,
            )
        return found

    @staticmethod
    def set_review(
        session: Session,
        game_ids: list[uuid.UUID],
        review: str | None,
        only_from: tuple[str, ...],
    ) -> int:
        """The fair-play review's word on won games (:mod:`api.fairplay`), for those whose
        word is one of ``only_from`` (``""``: none yet); how many changed."""
        return store.set_review(session, game_ids, review, only_from)

    @staticmethod
    def reviews(session: Executor, game_ids: list[uuid.UUID]) -> dict[uuid.UUID, str | None]:
        """The fair-play review's word on each game (``pending``, ``clean``, ``flagged``,
        ...: :mod:`api.fairplay`; None for a game it has no word on), by id: a tournament's
        final standings count a win once its word is in."""
        return store.get_reviews(session, game_ids)

    @staticmethod
    def won_games_of(session: Executor, player_id: uuid.UUID) -> list[WonGame]:
        """An account's won games that a board may hold, oldest first."""
        return store.won_games_of(session, player_id)

    @staticmethod
    def challenge_game_of(session: Executor, player_id: uuid.UUID, day: date) -> uuid.UUID | None:
        """The player's game of ``day``'s daily challenge, if they started one."""
        return challenge_game_of(session, player_id, day)

    @staticmethod
    def load_in(session: Executor, game_id: uuid.UUID) -> LoadedGame:
        """A game as stored and its engine state, read in ``session`` (with what the caller
        reads beside it), or 404."""
        return load_game(session, game_id)

    @staticmethod
    def history_in(session: Executor, game_id: uuid.UUID) -> list[PlacementRecord]:
        """A game's placements in order, read in ``session``, or 404."""
        return placements_of(session, game_id)


def _creation_fingerprint(request: NewGameRequest) -> str:
    """What makes two creations "the same request": the name asked for, the account of the
    key (the same Idempotency-Key sent with another player's key, or none, is another
    request) and whether it is the daily challenge."""
    # The key's row (an account's key made before it could have several is named by the
    # account's id: migration 0022), so a fingerprint stored before then still matches.
    owner = player_key_id(request.key) if request.key is not None else None
    body: dict[str, object] = (
        {"player": request.requested or "anonymous"}
        if request.key is None
        else {"player": request.requested, "account": owner.hex if owner else None}
    )
    if request.daily:
        body["challenge"] = "daily"
    return fingerprint("POST", "/games", body)
