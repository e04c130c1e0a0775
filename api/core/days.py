"""The days of the daily challenge: when one opens and closes, and what stays sealed until then.

Kept apart from :mod:`api.challenges.service` because the games need these rules (what a
challenge game shows, and when it takes placements) and the challenge's service needs none of
the games'.

A day's challenge opens at 00:00 UTC and closes at 00:00 UTC the next day. Until it closes, a
challenge game is *sealed*: its deck and salt (``reveal``) are not shown even once it is
over, its piles and history are shown to its player only, and placements are accepted; from
the close on, it is public like any game and takes no more placements.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from api.core.clock import now
from api.core.secrets import deck_commitment
from engine import Game


def opens_at(day: date) -> datetime:
    return datetime.combine(day, time(0), tzinfo=UTC)


def closes_at(day: date) -> datetime:
    return opens_at(day) + timedelta(days=1)


def is_closed(day: date) -> bool:
    return now() >= closes_at(day)


def is_sealed(challenge_date: date | None, sealed: bool = False) -> bool:
    """Whether a game of ``challenge_date``'s challenge (None: an ordinary game), or a game
    ``sealed`` by its race until the race ends, must still hide its deck and keep its piles
    and history to its player."""
    return sealed or (challenge_date is not None and not is_closed(challenge_date))


@dataclass(frozen=True)
class SharedDeal:
    """A deal that several games share (a day's challenge, a race): each game is dealt from
    its seed and salt, so all carry the same commitment."""

    seed: str  # the engine's shuffle seed (never shown)
    salt: str  # revealed with the deck once every game of it may be seen
    deck: tuple[str, ...]  # card codes, first drawn first
    commitment: str  # published from the start


@dataclass(frozen=True)
class DailyDeal(SharedDeal):
    """One day's challenge deal: what every challenge game of ``day`` is dealt from."""

    day: date


def shared_deal(secret: bytes, kind: str, name: str) -> SharedDeal:
    """The deal called ``kind:name``: a pure function of the secret and the name, so every
    process and replica sharing the secret deals the same one without talking to each
    other, and nobody without the secret can compute it (HMAC-SHA-256 is a pseudorandom
    function of its key). The seed and the salt come from distinct messages, so revealing
    the salt says nothing about the seed of another deal."""
    seed = hmac.new(secret, f"{kind}:{name}".encode(), hashlib.sha256).hexdigest()
    salt = hmac.new(secret, f"{kind}-salt:{name}".encode(), hashlib.sha256).hexdigest()[:32]
    deck = tuple(card.code for card in Game.from_seed(seed).deck)
    return SharedDeal(seed, salt, deck, deck_commitment(deck, salt))


def daily_deal(secret: bytes, day: date) -> DailyDeal:
    """The deal of ``day``: :func:`shared_deal` named by the date."""
    deal = shared_deal(secret, "daily", day.isoformat())
    return DailyDeal(deal.seed, deal.salt, deal.deck, deal.commitment, day)
