"""An account's credentials: its named keys, its recovery codes and its passkeys, from the
account's registration on.

Every secret is shown once and stored only hashed (keys and recovery codes are random, so a
SHA-256 is enough, as for games' tokens); a passkey is a public key, nothing secret. Each use
case runs in the write transaction the caller opens, so a refused request changes nothing.
Signing in (a recovery code, a passkey) makes a new named key for the device that signed in.

Passkeys are WebAuthn credentials, checked by the ``webauthn`` library (py_webauthn): the
service keeps each ceremony's challenge server-side (``passkey_challenges``, a few minutes)
and takes it as it is answered, so an answer is accepted once.
"""

from __future__ import annotations

import hmac
import json
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, generate_challenge
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from api.accounts import store
from api.accounts.errors import (
    InvalidRecoveryCode,
    InvalidToken,
    KeyNotFound,
    LastKey,
    MissingToken,
    NameReserved,
    NameTaken,
    PasskeyRefused,
)
from api.accounts.identity import SignedIn, authenticate_key, find_player
from api.accounts.store import KeyRecord, PasskeyKey, PasskeyListed, PlayerRecord, TakenChallenge
from api.core.clock import now
from api.core.database import Executor
from api.core.names import RESERVED_SKELETONS, account_name, name_key, name_skeleton
from api.core.secrets import (
    hash_token,
    new_player_key,
    new_recovery_code,
    recovery_code_hash,
)

RECOVERY_CODES = 10
CHALLENGE_LIFETIME = timedelta(minutes=5)
RP_NAME = "Foursquare"
FIRST_KEY_NAME = "first key"


@dataclass(frozen=True)
class Relying:
    """Who passkeys are for: the relying party id, and the origins their pages may have."""

    rp_id: str
    origins: list[str]


@dataclass(frozen=True)
class NewKey:
    """A key just made: its row and its secret (shown once)."""

    player: PlayerRecord
    key: KeyRecord
    secret: str


@dataclass(frozen=True)
class Registered:
    """An account just registered, and its first credentials (shown once)."""

    player: PlayerRecord
    key: str
    recovery_codes: list[str]


@dataclass(frozen=True)
class Credentials:
    player: PlayerRecord
    keys: list[KeyRecord]
    this_key: uuid.UUID
    passkeys: list[PasskeyListed]
    recovery_codes_left: int


@dataclass(frozen=True)
class Ceremony:
    """A WebAuthn ceremony begun: its challenge's id, and the options for the browser (the
    JSON of ``PublicKeyCredentialCreationOptions`` or ``...RequestOptions``)."""

    challenge_id: uuid.UUID
    options: dict[str, Any]


def owner(session: Executor, name: str, key: str | None, *, lock: bool = False) -> SignedIn:
    """The named account, signed in by one of its own keys: 404, ``401 missing_token`` or
    ``403 invalid_token``. ``lock``: the account's row is locked first, before the key's
    last use may be written, so that changes to its keys take the locks in one order (the
    account, then keys): a revocation signed by the key another one revokes then waits for
    it, rather than deadlocking with it."""
    player = find_player(session, name)
    if key is None:
        raise MissingToken("send one of the player's keys as 'Authorization: Bearer <key>'")
    if lock:
        assert isinstance(session, Session)
        store.lock_player(session, player.id)
    signed = authenticate_key(session, key)
    if signed.player.id != player.id:
        raise InvalidToken("this key is not this player's current key")
    return signed


def open_account(session: Session, raw_name: str, key_name: str = FIRST_KEY_NAME) -> Registered:
    """Register an account, its first key (named ``key_name``) and its recovery codes in
    ``session``'s transaction: ``409 name_reserved`` or ``409 name_taken`` for a name no
    account may take or one with an account's."""
    name = account_name(raw_name)
    key_of_name = name_key(name)
    skeleton = name_skeleton(name)
    reserved = RESERVED_SKELETONS.get(skeleton)
    if reserved is not None:
        raise NameReserved(
            f"the name {name!r} is, or is one name with, {reserved!r}, which no account may "
            "take: choose another"
        )
    if store.name_key_taken(session, key_of_name):
        raise NameTaken(f"the name {name!r} is taken")
    owner = store.name_with_skeleton(session, skeleton)
    if owner is not None:
        raise NameTaken(
            f"the name {name!r} is one name with the registered name {owner!r} (it looks "
            "like it, or differs only by '_' and '-'): choose another"
        )
    player = PlayerRecord(uuid.uuid4(), name, now())
    try:
        store.insert_player(session, player, key_of_name, skeleton)
    except IntegrityError:  # registered by a concurrent request since the check
        raise NameTaken(f"the name {name!r} is taken") from None
    key = issue_key(session, player, key_name)
    codes = issue_recovery_codes(session, player.id)
    return Registered(player, key.secret, codes)


# ---------------------------------------------------------------- keys


def issue_key(session: Session, player: PlayerRecord, name: str) -> NewKey:
    key_id = uuid.uuid4()
    secret = new_player_key(key_id)
    at = now()
    store.insert_key(session, key_id, player.id, name, hash_token(secret), at)
    return NewKey(player, KeyRecord(key_id, name, at, None), secret)


def credentials(session: Executor, name: str, key: str | None) -> Credentials:
    signed = owner(session, name, key)
    player_id = signed.player.id
    return Credentials(
        signed.player,
        store.keys_of(session, player_id),
        signed.key_id,
        store.passkeys_of(session, player_id),
        store.count_recovery_codes(session, player_id),
    )


def create_key(session: Session, name: str, key: str | None, key_name: str) -> NewKey:
    return issue_key(session, owner(session, name, key).player, key_name)


def revoke_key(session: Session, name: str, key: str | None, key_id: uuid.UUID) -> None:
    """Revoke one of the account's keys (the one signing the request too); never the last."""
    player = owner(session, name, key, lock=True).player
    keys = store.keys_of(session, player.id)
    if all(k.id != key_id for k in keys):
        raise KeyNotFound(f"{player.name} has no key {str(key_id)!r}")
    if len(keys) == 1:
        raise LastKey(
            f"this is {player.name}'s only key: revoking it would lose the account; create "
            "another first"
        )
    store.delete_key(session, player.id, key_id)


def rotate_key(session: Session, name: str, key: str | None) -> NewKey:
    """Replace the secret of the key signing the request (its name and id stay). The secret
    it replaces is kept (``previous_hash``) and accepted until the new one is first used
    (:func:`api.accounts.identity.authenticate_key`): a rotation whose answer was lost leaves the
    old secret working, and the old secret sent again rotates again, replacing the secret
    nobody read (the one kept stays the old one). Rotating with the new secret is its first
    use: it retires the old one, and is kept itself until its successor is used."""
    signed = owner(session, name, key)
    # Signed with the current secret: that one is kept. With the one its last rotation
    # replaced: the current one was never used, so it is replaced and the old one kept.
    kept = signed.key_hash if signed.current else signed.previous_hash
    assert kept is not None  # a secret that signed was one of the two
    fresh = new_player_key(signed.key_id)
    if not store.replace_key_hash(
        session, signed.key_id, (signed.key_hash, signed.previous_hash), hash_token(fresh), kept
    ):
        raise InvalidToken("this key was replaced by a concurrent rotation")
    row = next(k for k in store.keys_of(session, signed.player.id) if k.id == signed.key_id)
    return NewKey(signed.player, row, fresh)


# ---------------------------------------------------------------- recovery codes


def issue_recovery_codes(session: Session, player_id: uuid.UUID) -> list[str]:
    """Ten fresh codes, replacing the account's unspent ones."""
    codes = [new_recovery_code() for _ in range(RECOVERY_CODES)]
    store.replace_recovery_codes(session, player_id, [recovery_code_hash(c) for c in codes], now())
    return codes


def new_recovery_codes(session: Session, name: str, key: str | None) -> list[str]:
    return issue_recovery_codes(session, owner(session, name, key).player.id)


def recover(session: Session, name: str, code: str, key_name: str) -> NewKey:
    """Spend one recovery code for a new key, or ``403 invalid_recovery_code``. The code is
    compared with each unspent one in constant time, not looked up by its hash."""
    player = find_player(session, name)
    typed = recovery_code_hash(code)
    stored = store.recovery_code_hashes(session, player.id)
    matched = [h for h in stored if hmac.compare_digest(typed, h)]
    if not matched or not store.spend_recovery_code(session, player.id, matched[0]):
        raise InvalidRecoveryCode(f"this is not one of {player.name}'s unspent recovery codes")
    return issue_key(session, player, key_name)


# ---------------------------------------------------------------- passkeys


def _challenge(
    session: Session, purpose: str, player_id: uuid.UUID | None
) -> tuple[uuid.UUID, bytes]:
    challenge = generate_challenge()
    challenge_id = uuid.uuid4()
    at = now()
    record = TakenChallenge(bytes_to_base64url(challenge), player_id, at + CHALLENGE_LIFETIME)
    store.insert_challenge(session, challenge_id, purpose, record, at)
    return challenge_id, challenge


def passkey_options(session: Session, name: str, key: str | None, rp: Relying) -> Ceremony:
    """Begin registering a passkey for the account (a discoverable one: signing in on a new
    device needs no name)."""
    player = owner(session, name, key).player
    challenge_id, challenge = _challenge(session, "register", player.id)
    existing = store.credential_ids_of(session, player.id)
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=RP_NAME,
        user_name=player.name,
        user_id=player.id.bytes,
        challenge=challenge,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[
            PublicKeyCredentialDescriptor(id=base64url_to_bytes(known)) for known in existing
        ],
    )
    return Ceremony(challenge_id, json.loads(options_to_json(options)))


def _taken(session: Session, challenge_id: uuid.UUID, purpose: str) -> TakenChallenge:
    taken = store.take_challenge(session, challenge_id, purpose)
    if taken is None or taken.expires_at < now():
        raise PasskeyRefused(
            "this passkey challenge is unknown, answered already or expired: start again"
        )
    return taken


def register_passkey(
    session: Session,
    name: str,
    key: str | None,
    challenge_id: uuid.UUID,
    credential: dict[str, Any],
    passkey_name: str,
    rp: Relying,
) -> PasskeyListed:
    player = owner(session, name, key).player
    taken = _taken(session, challenge_id, "register")
    if taken.player_id != player.id:
        raise PasskeyRefused("this passkey challenge was for another account: start again")
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(taken.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origins,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise PasskeyRefused(f"this passkey could not be registered: {error}") from None
    at = now()
    passkey = PasskeyListed(uuid.uuid4(), passkey_name, at, None)
    signing = PasskeyKey(
        passkey.id,
        player.id,
        bytes_to_base64url(verified.credential_public_key),
        verified.sign_count,
    )
    try:
        with session.begin_nested():
            store.insert_passkey(
                session, passkey, signing, bytes_to_base64url(verified.credential_id)
            )
    except IntegrityError:
        raise PasskeyRefused("this passkey is registered already") from None
    return passkey


def revoke_passkey(session: Session, name: str, key: str | None, passkey_id: uuid.UUID) -> None:
    player = owner(session, name, key).player
    if not store.delete_passkey(session, player.id, passkey_id):
        raise KeyNotFound(f"{player.name} has no passkey {str(passkey_id)!r}")


def sign_in_options(session: Session, rp: Relying) -> Ceremony:
    """Begin a passkey sign-in: the browser offers the passkeys it holds for this site."""
    challenge_id, challenge = _challenge(session, "sign_in", None)
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        challenge=challenge,
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return Ceremony(challenge_id, json.loads(options_to_json(options)))


def passkey_sign_in(
    session: Session,
    challenge_id: uuid.UUID,
    credential: dict[str, Any],
    key_name: str,
    rp: Relying,
) -> NewKey:
    """A new key for the account whose passkey answered the challenge."""
    taken = _taken(session, challenge_id, "sign_in")
    credential_id = credential.get("id")
    passkey = (
        store.passkey_by_credential(session, credential_id)
        if isinstance(credential_id, str)
        else None
    )
    if passkey is None:
        raise PasskeyRefused("this passkey is no account's here: sign in another way")
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=base64url_to_bytes(taken.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=rp.origins,
            credential_public_key=base64url_to_bytes(passkey.public_key),
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        raise PasskeyRefused(f"this passkey's answer is not valid: {error}") from None
    store.passkey_used(session, passkey.id, verified.new_sign_count, now())
    player = store.get_player(session, passkey.player_id)
    assert player is not None  # a passkey goes with its account
    return issue_key(session, player, key_name)
