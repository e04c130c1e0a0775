"""Idempotent retries with the ``Idempotency-Key`` header.

A request with a key first *claims* it, in a transaction of its own: a row with the request's
fingerprint, a random claim id naming this request, and no answer yet. The request's own work
then stores its answer in that row from inside the work's write transaction
(:meth:`Claim.complete`), but only while the row still carries its claim id: the work and the
record of it commit together or not at all, and a request whose claim was taken over stores
nothing. A retry with the same key and fingerprint gets the stored answer
(``Idempotent-Replayed: true``); another fingerprint is ``422 idempotency_key_reused``; a
retry while the first is still running is ``409 request_in_progress``. Answers that a retry
should not repeat (5xx, ``version_conflict``, a missing or wrong credential) release the key
instead, and a request releases only its own claim. A claim left behind by a crashed process
is taken over after :data:`STALE_CLAIM` (``FOURSQUARE_IDEMPOTENCY_STALE_SECONDS``), by an
update guarded by the stale claim id: of two retries that find it stale, exactly one takes it.

The fingerprint is the caller's: the method, the path and the validated body, and whatever
else makes two requests "the same" (a digest of the credential that authorised it, so that
only that credential's holder is ever replayed its answer).

Keys are stored as their SHA-256 only. An answer that carries a secret (a new game's token,
a player's key, a racer's token: :attr:`Answer.secret`) is stored whole, encrypted with the
server's replay secret and the key itself (:mod:`api.idempotency.sealing`), so that neither
the table alone nor the table with the server's secret gives a secret away; whatever else the
answer comes to carry beside its secret is sealed with it. Rows are deleted once their window
(:data:`RETENTION`) has passed (:func:`purge_periodically`, which every server process runs),
so a kept secret goes with its row.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from functools import partial
from typing import Any, Generic, TypeVar

import anyio
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from api.core.clock import now
from api.core.database import Database
from api.core.errors import ApiError
from api.core.problems import PROBLEM_MEDIA_TYPE, api_error_response
from api.idempotency import store
from api.idempotency.errors import IdempotencyKeyReused, RequestInProgress
from api.idempotency.sealing import ReplaySeal, Unreadable

T = TypeVar("T")
C = TypeVar("C")

STALE_CLAIM = timedelta(seconds=60)
RETENTION = timedelta(hours=24)
# Answers a retry must not be replayed: it should try again for real.
_UNSTORED_CODES = frozenset(
    {"version_conflict", "database_busy", "request_in_progress", "missing_token", "invalid_token"}
)
PURGE_EVERY = timedelta(minutes=10)
logger = logging.getLogger("foursquare.idempotency")


@dataclass(frozen=True)
class Answer:
    """An answer as it is sent and as it is replayed: status, body, headers, and whether the
    body holds a secret shown once (then stored encrypted, :mod:`api.idempotency.sealing`)."""

    status: int
    body: bytes
    headers: dict[str, str] = field(default_factory=dict)
    media_type: str = "application/json"
    secret: bool = False


class _ClaimLost(RequestInProgress):
    """This request's claim was taken over (it ran past :data:`STALE_CLAIM`)."""


def _in_progress(left: timedelta) -> RequestInProgress:
    """``409 request_in_progress`` for a claim that can be taken over ``left`` from now.

    ``Retry-After`` says when that is, rounded up, and not a fixed second: a claim whose
    process died answers nothing until it is stale, and a client told "1" retried some fifty
    times over the minute. A claim whose request is alive is answered sooner (a retry then
    gets the stored answer), which the detail says."""
    seconds = max(1, math.ceil(left.total_seconds()))
    return RequestInProgress(
        "a request with this Idempotency-Key is still being processed; a retry gets its "
        f"answer once it has finished, or takes the key over in {seconds} seconds if it "
        "never does (its process stopped)",
        retry_after=seconds,
    )


def fingerprint(method: str, path: str, body: Any) -> str:
    """What makes two requests "the same": method, path and a JSON value of the rest."""
    canonical = json.dumps([method, path, body], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def credential_digest(credential: str) -> str:
    """What a fingerprint holds of the credential that sent a request."""
    return hashlib.sha256(f"foursquare-idempotency-credential\0{credential}".encode()).hexdigest()


def key_hash(key: str) -> str:
    """What the database stores of a key."""
    return hashlib.sha256(f"foursquare-idempotency-key\0{key}".encode()).hexdigest()


@dataclass(frozen=True)
class Claim(Generic[C]):
    """A key this request holds (or the answer stored under it, :attr:`replay`), and what
    the claim's check found (:attr:`checked`)."""

    scope: str
    key: str
    hashed: str
    claim: str
    checked: C
    seal: ReplaySeal
    replay: Answer | None = None

    def complete(self, session: Session, answer: Answer) -> Answer:
        """Store ``answer`` under the key, in the caller's transaction (the one that does
        the request's work); ``409 request_in_progress`` if the claim was taken over, which
        rolls the work back."""
        headers = {**answer.headers, "Content-Type": answer.media_type}
        body = (
            self.seal.seal(answer.body, self.key, _row(self.scope, self.hashed))
            if answer.secret
            else answer.body.decode()
        )
        if not store.complete_idempotency_claim(
            session,
            self.scope,
            self.hashed,
            self.claim,
            answer.status,
            body,
            headers,
            now(),
            sealed=answer.secret,
        ):
            raise _ClaimLost(
                "this request ran so long that a retry with its Idempotency-Key took over; "
                "that retry's answer stands"
            )
        return answer

    def refused(self, session: Session, error: ApiError, instance: str) -> None:
        """The request was refused: store the refusal for its retries, or release the key
        for refusals a retry should not get again."""
        if error.status >= 500 or error.code in _UNSTORED_CODES:
            self.release(session)
            return
        rendered = api_error_response(error, instance)
        answer = Answer(error.status, bytes(rendered.body), dict(error.headers), PROBLEM_MEDIA_TYPE)
        self.complete(session, answer)

    def release(self, session: Session) -> None:
        """Forget this request's claim (never somebody else's)."""
        store.release_idempotency_claim(session, self.scope, self.hashed, self.claim)


class IdempotentRequests:
    """Requests run once per ``Idempotency-Key``: creations and placements alike."""

    def __init__(
        self, database: Database, seal: ReplaySeal, stale_claim: timedelta = STALE_CLAIM
    ) -> None:
        self.database = database
        self.seal = seal
        self.stale_claim = stale_claim

    async def run(
        self,
        key: str | None,
        scope: str,
        request_fingerprint: Callable[[], str],
        instance: str,
        prepare: Callable[[C | None], Awaitable[Callable[[Session], Answer]]],
        check: Callable[[Session], C] | None = None,
    ) -> tuple[Answer, bool]:
        """The answer to a request, and whether it is the replay of an earlier one.

        ``request_fingerprint`` is computed only for a request with a key (a plain request
        has nothing to compare it with). ``prepare`` does what comes before the request's
        write (reads, the engine's play), given what ``check`` found, and returns the write,
        which returns the answer. Without a key that is all. With one, the key is claimed
        first (in a transaction of its own, after ``check``: a replay needs what the first
        request needed), the answer is stored in the write's own transaction, and a refusal
        (an :class:`ApiError`, answered as on ``instance``) is stored or releases the key."""
        if key is None:
            write = await prepare(None)
            return await self.database.write(write), False
        claim: Claim[C | None] = await self.claim(scope, key, request_fingerprint(), check)
        if claim.replay is not None:
            return claim.replay, True
        try:
            write = await prepare(claim.checked)
            answer = await self.database.write(
                lambda session: claim.complete(session, write(session))
            )
        except ApiError as error:
            await self.database.write(partial(claim.refused, error=error, instance=instance))
            raise
        except BaseException:
            # Cancelled or failed: the key is free for a retry (shielded: a cancelled
            # request still releases it).
            with anyio.CancelScope(shield=True):
                await self.database.write(claim.release)
            raise
        return answer, False

    async def claim(
        self,
        scope: str,
        key: str,
        request_fingerprint: str,
        check: Callable[[Session], C] | None = None,
    ) -> Claim[C | None]:
        """Claim the key for this request, or find the answer stored under it
        (:attr:`Claim.replay`), after ``check``."""
        hashed = key_hash(key)
        claim = secrets.token_hex(16)

        def claim_in(session: Session) -> Claim[C | None]:
            checked = check(session) if check is not None else None
            replay = self._claim_in(session, scope, key, hashed, claim, request_fingerprint, now())
            found = Claim(scope, key, hashed, claim, checked, self.seal)
            return found if replay is None else replace(found, replay=replay)

        for _ in range(3):
            try:
                return await self.database.write(claim_in)
            except IntegrityError:
                continue  # another request claimed the key between our read and insert
        # Claimed just now by another request: it can be taken over a whole period from now.
        raise _in_progress(self.stale_claim)

    def _claim_in(
        self,
        session: Session,
        scope: str,
        key: str,
        hashed: str,
        claim: str,
        request_fingerprint: str,
        claimed_at: Any,
    ) -> Answer | None:
        record = store.get_idempotency_key(session, scope, hashed)
        if record is None:
            store.insert_idempotency_claim(
                session, scope, hashed, claim, request_fingerprint, claimed_at
            )
            return None
        if claimed_at - record.created_at >= RETENTION:
            # Past its window (and not yet purged): the key is new again, whatever it held.
            store.reclaim_idempotency_key(
                session, scope, hashed, claim, request_fingerprint, claimed_at
            )
            return None
        if record.fingerprint != request_fingerprint:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was already used with a different request"
            )
        if record.status_code is None:
            left = self.stale_claim - (claimed_at - record.created_at)
            if left <= timedelta(0) and store.take_over_idempotency_claim(
                session, scope, hashed, record.claim, claim, claimed_at
            ):
                return None  # the first try died with its process: take over
            raise _in_progress(left)
        headers = dict(record.response_headers or {})
        body = (record.response_body or "").encode()
        if record.response_sealed:
            try:
                body = self.seal.open(record.response_body or "", key, _row(scope, hashed))
            except Unreadable:
                # Sealed under another replay secret (the setting changed within the window):
                # nothing can be replayed, so the retry is served as a new request.
                logger.warning("a stored answer of scope %s no longer opens: served anew", scope)
                store.reclaim_idempotency_key(
                    session, scope, hashed, claim, request_fingerprint, claimed_at
                )
                return None
        return Answer(
            status=record.status_code,
            body=body,
            headers=headers,
            media_type=headers.pop("Content-Type", "application/json"),
            secret=record.response_sealed,
        )


def purge_in(session: Session, older_than: timedelta = RETENTION) -> int:
    """Delete keys claimed more than ``older_than`` ago (never less than 24 hours), with the
    answers stored under them, in ``session``'s transaction."""
    return store.delete_idempotency_keys_before(session, now() - max(older_than, RETENTION))


def purge(database: Database, older_than: timedelta = RETENTION) -> int:
    """:func:`purge_in` in a transaction of its own (``foursquare prune-keys``)."""
    with database.transaction() as session:
        return purge_in(session, older_than)


def _row(scope: str, hashed: str) -> str:
    """What a sealed answer is bound to: its row."""
    return f"{scope}\0{hashed}"


async def purge_periodically(database: Database, every: timedelta = PURGE_EVERY) -> None:
    """Delete the keys whose window has passed, and the answers (secrets included) stored
    under them, every ``every``, until cancelled. Every server process runs it: a second
    ``DELETE`` of the same rows deletes nothing."""
    while True:
        await asyncio.sleep(every.total_seconds())
        try:
            deleted = await database.write(purge_in)
        except Exception:
            # A busy or unreachable database must not end the loop: the next round tries again.
            logger.exception("deleting expired Idempotency-Keys failed")
        else:
            if deleted:
                logger.info("deleted %d Idempotency-Keys past their window", deleted)
