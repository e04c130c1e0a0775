"""Cards, decks and the seeded shuffle.

A card is one of 40: ranks Ace (1) to 10 in four suits. Inside the engine a card is
a small integer ``index = (rank - 1) * 4 + suit``; the public type is :class:`Card`.
"""

from __future__ import annotations

import hashlib
import itertools
import struct
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from engine.errors import InvalidCard, InvalidDeck

__all__ = [
    "CARDS",
    "DECK_SIZE",
    "Card",
    "Suit",
    "full_deck",
    "parse_deck",
    "shuffled_deck",
]

DECK_SIZE = 40
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


class Suit(Enum):
    """The four suits. They never matter for the rules; they make every card distinct."""

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def label(self) -> str:
        """The lower-case English name used by the API, e.g. ``"diamonds"``."""
        return self.name.lower()


_SUITS = tuple(Suit)
_WORDS = struct.Struct(">4Q")
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUITS)}


@dataclass(frozen=True, slots=True)
class Card:
    """One card: a rank from 1 (Ace) to 10 and a suit.

    Cards sort in card order (by :attr:`index`: rank, then suit in C, D, H, S order).

    >>> Card.parse("6D")
    Card.parse('6D')
    >>> Card.parse("AS").rank, Card.parse("10C").code
    (1, '10C')
    >>> sorted([Card.parse("2C"), Card.parse("AS"), Card.parse("AC")])
    [Card.parse('AC'), Card.parse('AS'), Card.parse('2C')]
    """

    rank: int
    suit: Suit
    index: int = field(init=False, compare=False, repr=False)
    """The card's number in 0..39, ``(rank - 1) * 4 + suit`` (suits in C, D, H, S order)."""

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 10):
            raise InvalidCard(f"rank {self.rank!r} is not between 1 and 10")
        if not isinstance(self.suit, Suit):
            raise InvalidCard(f"suit {self.suit!r} is not a Suit")
        object.__setattr__(self, "index", (self.rank - 1) * 4 + _SUIT_INDEX[self.suit])

    @property
    def code(self) -> str:
        """The card code: rank ``A 2 ... 10`` then suit ``C D H S``."""
        return RANK_CODES[self.rank - 1] + self.suit.value

    @classmethod
    def parse(cls, code: str) -> Card:
        """Parse a card code such as ``"AS"``, ``"6D"`` or ``"10C"`` (case-insensitive)."""
        card = _BY_CODE.get(code)  # the common, exact case
        if card is None and isinstance(code, str):
            card = _BY_CODE.get(code.strip().upper())
        if card is None:
            raise InvalidCard(f"{code!r} is not a card code (A..10 then C, D, H or S)")
        return card

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with number ``index`` (0..39)."""
        if not 0 <= index < DECK_SIZE:
            raise InvalidCard(f"card index {index!r} is not between 0 and 39")
        return CARDS[index]

    # Ordering by index: the dataclass's order=True would compare Suit members, which have no
    # order, and raise TypeError for two cards of the same rank.
    def __lt__(self, other: object) -> bool:
        return self.index < other.index if isinstance(other, Card) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.index <= other.index if isinstance(other, Card) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.index > other.index if isinstance(other, Card) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.index >= other.index if isinstance(other, Card) else NotImplemented

    def __hash__(self) -> int:
        return self.index  # cheap, and consistent with equality (same rank and suit)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


CARDS: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(1, 11) for suit in _SUITS)
_BY_CODE = {card.code: card for card in CARDS}


def full_deck() -> list[Card]:
    """The 40 cards in index order (AC, AD, AH, AS, 2C, ...)."""
    return list(CARDS)


def parse_deck(cards: Iterable[Card | str]) -> list[Card]:
    """A deck from card codes or cards; it must hold each of the 40 cards exactly once."""
    return [CARDS[i] for i in deck_indices(cards)]


def deck_indices(cards: Iterable[Card | str]) -> list[int]:
    """The card numbers of a deck given as cards or codes, checked to be the 40 cards."""
    indices = [card.index if isinstance(card, Card) else Card.parse(card).index for card in cards]
    if len(indices) != DECK_SIZE:
        raise InvalidDeck(f"a deck holds {DECK_SIZE} cards, not {len(indices)}")
    if len(set(indices)) != DECK_SIZE:
        seen: set[int] = set()
        twice = next(i for i in indices if i in seen or seen.add(i))  # type: ignore[func-returns-value]
        raise InvalidDeck(f"{CARDS[twice].code} appears twice in the deck")
    return indices


def _seed_bytes(seed: int | str | bytes) -> bytes:
    if isinstance(seed, bool):
        raise TypeError("a seed is an int, str or bytes, not a bool")
    if isinstance(seed, int):
        return b"int:" + str(seed).encode("ascii")
    if isinstance(seed, str):
        return b"str:" + seed.encode("utf-8")
    if isinstance(seed, bytes):
        return b"bytes:" + seed
    raise TypeError(f"a seed is an int, str or bytes, not {type(seed).__name__}")


def _random_words(seed: int | str | bytes, blocks: int) -> Iterator[int]:
    """64-bit words from SHA-256 in counter mode over the seed: ``blocks`` blocks at a time,
    for ever."""
    key = hashlib.sha256(b"foursquare-deck-v1\x00" + _seed_bytes(seed)).digest()
    for start in itertools.count(0, blocks):
        chunk: list[int] = []
        for counter in range(start, start + blocks):
            chunk.extend(_WORDS.unpack(hashlib.sha256(key + counter.to_bytes(8, "big")).digest()))
        yield from chunk


def shuffled_deck(seed: int | str | bytes) -> list[Card]:
    """The deck dealt by ``seed``: identical on every Python version and machine.

    The recipe (version 1), fixed forever so that a seed always names the same deal:

    1. ``key = SHA-256(b"foursquare-deck-v1\\x00" + tag)``, where ``tag`` is
       ``b"int:" + str(seed)`` for an int, ``b"str:" + utf8(seed)`` for a str and
       ``b"bytes:" + seed`` for bytes.
    2. A stream of 64-bit big-endian words: the 32-byte blocks
       ``SHA-256(key + counter.to_bytes(8, "big"))`` for counter 0, 1, 2, ..., each cut in four.
    3. Fisher-Yates over :func:`full_deck`: for ``i`` from 39 down to 1, take words until one is
       below ``2**64 - 2**64 % (i + 1)`` (rejection, so there is no bias), let
       ``j = word % (i + 1)`` and swap positions ``i`` and ``j``.

    >>> [card.code for card in shuffled_deck(0)[:5]]
    ['5C', '8C', '4H', '5S', 'AC']
    """
    return [CARDS[i] for i in shuffled_indices(seed)]


_LIMITS = [(1 << 64) - (1 << 64) % (i + 1) for i in range(DECK_SIZE)]


def shuffled_indices(seed: int | str | bytes) -> list[int]:
    """:func:`shuffled_deck` as card numbers (0..39)."""
    deck = list(range(DECK_SIZE))
    words = _random_words(seed, blocks=10)  # 40 words: enough unless a word is rejected
    for i in range(DECK_SIZE - 1, 0, -1):
        limit = _LIMITS[i]
        word = next(words)
        while word >= limit:
            word = next(words)
        j = word % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deck_codes(deck: Sequence[Card]) -> list[str]:
    """The card codes of a deck, in order."""
    return [card.code for card in deck]
