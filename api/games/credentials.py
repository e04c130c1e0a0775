"""Secrets of a game: its token (generated with ``secrets``, stored only as a hash, compared
in constant time), its seed, and the commitment to its deck.

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
