"""Provably fair deals: a commitment to the deck made when the game is created.

The recipe (also in the README)::

    commitment = SHA-256(salt + ":" + ",".join(deck_codes)).hexdigest()

``salt`` is 32 random hex digits and ``deck_codes`` the 40 card codes in the order they are
drawn (``deck[0]`` first). The commitment is public from the start; the deck and the salt are
revealed when the game ends, so anyone can check that the deal never changed.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Sequence


def new_salt() -> str:
    return secrets.token_hex(16)


def deck_commitment(deck_codes: Sequence[str], salt: str) -> str:
    """The SHA-256 commitment to a deck order.

    >>> deck_commitment(["AC", "AD"], "00")[:16]
    'f8dfeca7ce360fac'
    """
    return hashlib.sha256(f"{salt}:{','.join(deck_codes)}".encode()).hexdigest()
