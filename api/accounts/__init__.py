"""Accounts: who a request is for (a player's key, a guest's name, the computer) and an
account's credentials (keys, recovery codes, passkeys), below every feature that has players:
identity for them all, and the credentials' use cases for the players' routes."""

from api.accounts.credentials import FIRST_KEY_NAME, NewKey, Registered, open_account, rotate_key
from api.accounts.errors import (
    InvalidRecoveryCode,
    InvalidToken,
    KeyNotFound,
    LastKey,
    MissingToken,
    NameReserved,
    NameTaken,
    PasskeyRefused,
    PlayerNameMismatch,
    PlayerNotFound,
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
from api.accounts.service import AccountService
from api.accounts.settings import AccountSettings
from api.accounts.store import PlayerRecord, bearer_key_hashes, get_player

__all__ = [
    "COMPUTER",
    "FIRST_KEY_NAME",
    "AccountService",
    "AccountSettings",
    "Identity",
    "InvalidRecoveryCode",
    "InvalidToken",
    "KeyNotFound",
    "LastKey",
    "MissingToken",
    "NameReserved",
    "NameTaken",
    "NewKey",
    "PasskeyRefused",
    "PlayerNameMismatch",
    "PlayerNotFound",
    "PlayerRecord",
    "Registered",
    "SignedIn",
    "authenticate",
    "authenticate_key",
    "bearer_key_hashes",
    "find_player",
    "get_player",
    "identify",
    "identify_account",
    "open_account",
    "retire_previous_secret",
    "rotate_key",
    "signed_in",
]
