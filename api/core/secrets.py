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


# A player's key names its row of ``player_keys`` (one of the account's named keys), so that
# a request bearing only the key (POST /games) finds it by its primary key and then compares
# the key's hash in constant time, exactly like a game's token; no lookup is ever made by a
# secret. The key an account had before it could have several named its player: migration 0022
# gave its row the player's id, so it reads the same way.
PLAYER_KEY_PREFIX = "fsp"


def new_player_key(key_id: uuid.UUID) -> str:
    """A fresh secret key: ``fsp.<key id, hex>.<256 random bits>``."""
    return f"{PLAYER_KEY_PREFIX}.{key_id.hex}.{new_token()}"


def player_key_id(key: str) -> uuid.UUID | None:
    """The key row a key claims to be (not yet checked), or None if it is no player key."""
    prefix, _, rest = key.partition(".")
    key_hex, _, secret = rest.partition(".")
    if prefix != PLAYER_KEY_PREFIX or len(key_hex) != 32 or not secret:
        return None
    try:
        return uuid.UUID(hex=key_hex)
    except ValueError:
        return None


# Recovery codes: 80 random bits in 16 letters of Crockford-like base32 without look-alikes,
# shown in groups of four. Random, so a fast hash at rest is enough (as for keys).
_CODE_ALPHABET = "abcdefghjkmnpqrstvwxyz0123456789"


def new_recovery_code() -> str:
    letters = "".join(secrets.choice(_CODE_ALPHABET) for _ in range(16))
    return "-".join(letters[i : i + 4] for i in range(0, 16, 4))


def recovery_code_hash(code: str) -> str:
    """The hash of a code as typed: case, spaces and dashes do not matter."""
    return hash_token("".join(ch for ch in code.lower() if ch.isalnum()))
