"""The encryption of a stored answer that carries a secret (a game's or a racer's token, a
player's key), so that a replay can hand it back while the table never holds it in clear.

AES-256-GCM from ``cryptography`` (authenticated: a body altered in the table is refused, not
replayed), with a key made by HKDF-SHA-256 from two secrets, neither of which the table holds:

- the server's replay secret (``FOURSQUARE_REPLAY_SECRET``, or the random one migration 0020
  stored in ``service_secrets``): the table alone, a backup of it or a leaked row, opens
  nothing;
- the request's own ``Idempotency-Key``, stored only as its hash: the server's secret with the
  table still opens nothing either, only a retry that sends the key does.

Each answer has its own random nonce; the row's scope and key hash are the associated data,
so a sealed body moved to another row does not open.
"""

from __future__ import annotations

import base64
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

SECRET_NAME = "replay"  # its row in service_secrets (migration 0020)
_NONCE_BYTES = 12
_INFO = b"foursquare-idempotency-replay\0"


class Unreadable(Exception):
    """A sealed answer that this secret and key do not open (the replay secret changed since,
    or the row was altered)."""


class ReplaySeal:
    """Seals and opens stored answers with the server's replay secret."""

    def __init__(self, secret: bytes) -> None:
        if not secret:
            raise ValueError("the replay secret is empty")
        self._secret = secret

    def _cipher(self, key: str) -> AESGCM:
        derived = HKDF(
            algorithm=hashes.SHA256(), length=32, salt=None, info=_INFO + key.encode()
        ).derive(self._secret)
        return AESGCM(derived)

    def seal(self, body: bytes, key: str, where: str) -> str:
        """``body`` encrypted for the retries that send ``key``, bound to the row ``where``."""
        nonce = os.urandom(_NONCE_BYTES)
        sealed = self._cipher(key).encrypt(nonce, body, where.encode())
        return base64.urlsafe_b64encode(nonce + sealed).decode()

    def open(self, stored: str, key: str, where: str) -> bytes:
        """The body :meth:`seal` stored, or :class:`Unreadable`."""
        try:
            raw = base64.urlsafe_b64decode(stored.encode())
            nonce, sealed = raw[:_NONCE_BYTES], raw[_NONCE_BYTES:]
            return self._cipher(key).decrypt(nonce, sealed, where.encode())
        except (InvalidTag, ValueError) as error:
            raise Unreadable("the stored answer does not open with this key") from error
