"""Secrets: a game's token and a player's key (generated with ``secrets``, stored only as a
hash, compared in constant time), a game's seed, and the commitment to its deck.

Provably fair deals: the recipe (also in the README)::

    commitment = SHA-256(salt + ":" + ",".join(deck_codes)).hexdigest()

``salt`` is 32 random hex digits and ``deck_codes`` the 40 card codes in the order they are
drawn (``deck[0]`` first). The commitment is public from the start; the deck and the salt are
revealed when the game ends, so anyone can check that the deal never changed.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import uuid
from collections.abc import Sequence

TOKEN_BYTES = 32


def new_token() -> str:
    """A fresh bearer token (256 random bits, URL-safe)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """SHA-256 of the token, hex. Tokens are random, so a fast hash is enough."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str) -> bool:
    return hmac.compare_digest(hash_token(token), token_hash)


def new_seed() -> str:
    """A secret random seed for dealing a game (128 bits)."""
    return secrets.token_hex(16)


def new_salt() -> str:
    return secrets.token_hex(16)


def deck_commitment(deck_codes: Sequence[str], salt: str) -> str:
    """The SHA-256 commitment to a deck order.

    >>> deck_commitment(["AC", "AD"], "00")[:16]
    'f8dfeca7ce360fac'
    """
    return hashlib.sha256(f"{salt}:{','.join(deck_codes)}".encode()).hexdigest()


# A player's key names its player, so that a request bearing only the key (POST /games) finds
# the account by its primary key and then compares the key's hash in constant time, exactly
# like a game's token; no lookup is ever made by a secret.
PLAYER_KEY_PREFIX = "fsp"


def new_player_key(player_id: uuid.UUID) -> str:
    """A fresh secret key for a player: ``fsp.<player id, hex>.<256 random bits>``."""
    return f"{PLAYER_KEY_PREFIX}.{player_id.hex}.{new_token()}"


def player_key_owner(key: str) -> uuid.UUID | None:
    """The player a key claims to belong to (not yet checked), or None if it is no player key."""
    prefix, _, rest = key.partition(".")
    player_hex, _, secret = rest.partition(".")
    if prefix != PLAYER_KEY_PREFIX or len(player_hex) != 32 or not secret:
        return None
    try:
        return uuid.UUID(hex=player_hex)
    except ValueError:
        return None


def player_key_matches(key: str, player_id: uuid.UUID, key_hash: str) -> bool:
    """Whether ``key`` is the current key of the player ``player_id`` (hash stored)."""
    return player_key_owner(key) == player_id and token_matches(key, key_hash)
