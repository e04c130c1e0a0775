"""Accounts: who a request is for (a player's key, a guest's name, the computer) and an
account's credentials (keys, recovery codes, passkeys), below every feature that has players.

Its face is two groups: identity, which every feature with players uses, and the credential
use cases, which the players' routes offer over HTTP."""

from api.accounts.credentials import (
    FIRST_KEY_NAME,
    Ceremony,
    Credentials,
    NewKey,
    Registered,
    Relying,
    create_key,
    credentials,
    new_recovery_codes,
    open_account,
    passkey_options,
    passkey_sign_in,
    recover,
    register_passkey,
    revoke_key,
    revoke_passkey,
    rotate_key,
    sign_in_options,
)
from api.accounts.identity import (
    COMPUTER,
    Identity,
    SignedIn,
    authenticate,
    authenticate_key,
    find_player,
    identify,
    identify_account,
    retire_previous_secret,
    signed_in,
)
from api.accounts.store import PasskeyRecord, PlayerRecord, bearer_key_hashes, get_player

__all__ = [
    "COMPUTER",
    "FIRST_KEY_NAME",
    "Ceremony",
    "Credentials",
    "Identity",
    "NewKey",
    "PasskeyRecord",
    "PlayerRecord",
    "Registered",
    "Relying",
    "SignedIn",
    "authenticate",
    "authenticate_key",
    "bearer_key_hashes",
    "create_key",
    "credentials",
    "find_player",
    "get_player",
    "identify",
    "identify_account",
    "new_recovery_codes",
    "open_account",
    "passkey_options",
    "passkey_sign_in",
    "recover",
    "register_passkey",
    "retire_previous_secret",
    "revoke_key",
    "revoke_passkey",
    "rotate_key",
    "sign_in_options",
    "signed_in",
]
