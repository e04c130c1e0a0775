"""Cards, decks and the seeded shuffle."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any

import pytest

from engine import (
    CARDS,
    DECK_SIZE,
    Card,
    Game,
    InvalidCard,
    InvalidDeck,
    Suit,
    full_deck,
    parse_deck,
    shuffled_deck,
)

ALL_CODES = [
    rank + suit for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"] for suit in "CDHS"
]

# Fixed forever: a seed names the same deal on every machine and Python version. If one of
# these fails, the shuffle changed and every stored seed now deals a different game.
PINNED_DECKS: dict[int | str, list[str]] = {
    0: [
        "5C", "8C", "4H", "5S", "AC", "6D", "AH", "9S", "8H", "3S",
        "3C", "10D", "3D", "10H", "6C", "2C", "5H", "2H", "7S", "2D",
        "10S", "5D", "4C", "9C", "8S", "7H", "3H", "6H", "AD", "6S",
        "9D", "4S", "2S", "4D", "8D", "10C", "AS", "7C", "7D", "9H",
    ],
    12345: [
        "3C", "7C", "5S", "10S", "3H", "7H", "2C", "4D", "8S", "4H",
        "2D", "6D", "8D", "6C", "7D", "10C", "7S", "AC", "5C", "AH",
        "9S", "9H", "6H", "8H", "AD", "4C", "2S", "5H", "3S", "9D",
        "AS", "6S", "9C", "10H", "8C", "3D", "5D", "4S", "2H", "10D",
    ],
    "ana": [
        "7D", "8C", "5D", "2D", "3S", "4C", "8D", "9H", "9C", "AS",
        "5S", "7C", "4S", "6D", "2S", "3C", "8H", "8S", "7H", "AC",
        "2C", "9D", "AH", "10D", "6S", "9S", "6H", "6C", "3D", "4D",
        "10S", "4H", "5H", "10H", "3H", "7S", "10C", "AD", "5C", "2H",
    ],
}  # fmt: skip


def documented_shuffle(seed: int | str | bytes) -> list[str]:
    """The recipe in :func:`engine.cards.shuffled_deck`'s docstring, written out afresh."""
    if isinstance(seed, int):
        tag = b"int:" + str(seed).encode()
    elif isinstance(seed, str):
        tag = b"str:" + seed.encode("utf-8")
    else:
        tag = b"bytes:" + seed
    key = hashlib.sha256(b"foursquare-deck-v1\x00" + tag).digest()

    def words() -> Iterator[int]:
        counter = 0
        while True:
            block = hashlib.sha256(key + counter.to_bytes(8, "big")).digest()
            for start in range(0, 32, 8):
                yield int.from_bytes(block[start : start + 8], "big")
            counter += 1

    stream = words()
    deck = list(ALL_CODES)
    for i in range(39, 0, -1):
        word = next(stream)
        while word >= 2**64 - 2**64 % (i + 1):
            word = next(stream)
        j = word % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def test_there_are_forty_cards_in_index_order() -> None:
    assert DECK_SIZE == 40
    assert [card.code for card in CARDS] == ALL_CODES
    assert [card.index for card in CARDS] == list(range(40))
    assert full_deck() == list(CARDS)


@pytest.mark.parametrize("code", ALL_CODES)
def test_card_code_round_trips(code: str) -> None:
    card = Card.parse(code)

    assert card.code == str(card) == code
    assert Card.parse(code.lower()) == card
    assert Card.from_index(card.index) == card
    assert Card(card.rank, card.suit) == card
    assert eval(repr(card)) == card  # the repr reads like code


def test_ranks_and_suits_come_from_the_code() -> None:
    ace, ten = Card.parse("AS"), Card.parse("10C")

    assert (ace.rank, ace.suit, ace.suit.label) == (1, Suit.SPADES, "spades")
    assert (ten.rank, ten.suit, ten.suit.label) == (10, Suit.CLUBS, "clubs")


@pytest.mark.parametrize(
    "code", ["", "1S", "0C", "11C", "KS", "QH", "JD", "AX", "10", "S", "A S", "6DD", 6, None]
)
def test_bad_card_code_is_rejected(code: Any) -> None:
    with pytest.raises(InvalidCard) as raised:
        Card.parse(code)

    assert raised.value.code == "invalid_card"
    assert repr(code) in str(raised.value)


@pytest.mark.parametrize(("rank", "suit"), [(0, Suit.CLUBS), (11, Suit.HEARTS), (1, "C")])
def test_card_outside_the_forty_cannot_be_built(rank: Any, suit: Any) -> None:
    with pytest.raises(InvalidCard):
        Card(rank, suit)


@pytest.mark.parametrize("index", [-1, 40])
def test_card_index_outside_0_to_39_is_rejected(index: int) -> None:
    with pytest.raises(InvalidCard):
        Card.from_index(index)


def test_cards_sort_in_card_order() -> None:
    assert sorted(reversed(CARDS)) == list(CARDS)
    assert Card.parse("AS") < Card.parse("2C")
    assert Card.parse("AC") < Card.parse("AS")
    assert max(Card.parse("10C"), Card.parse("10S")) == Card.parse("10S")


def test_deck_parses_from_codes_and_cards() -> None:
    codes = PINNED_DECKS[0]

    assert [card.code for card in parse_deck(codes)] == codes
    assert parse_deck(parse_deck(codes)) == parse_deck(codes)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        pytest.param(ALL_CODES[:39], "not 39", id="39-cards"),
        pytest.param([*ALL_CODES, "AC"], "not 41", id="41-cards"),
        pytest.param([*ALL_CODES[:39], "7H"], "7H appears twice", id="duplicate"),
        pytest.param([], "not 0", id="empty"),
    ],
)
def test_deck_that_is_not_the_forty_cards_is_rejected(deck: list[str], message: str) -> None:
    with pytest.raises(InvalidDeck, match=message) as raised:
        parse_deck(deck)
    assert raised.value.code == "invalid_deck"

    with pytest.raises(InvalidDeck):
        Game(deck)


def test_deck_with_a_bad_code_is_rejected() -> None:
    with pytest.raises(InvalidCard):
        parse_deck([*ALL_CODES[:39], "KS"])


@pytest.mark.parametrize("seed", list(PINNED_DECKS))
def test_seed_always_deals_the_pinned_deck(seed: int | str) -> None:
    assert [card.code for card in shuffled_deck(seed)] == PINNED_DECKS[seed]
    assert [card.code for card in Game.from_seed(seed).deck] == PINNED_DECKS[seed]


@pytest.mark.parametrize("seed", [0, 1, -7, 12345, 2**80, "ana", "", "Flavortown ü", b"\x00\xff"])
def test_shuffle_follows_the_documented_recipe(seed: int | str | bytes) -> None:
    assert [card.code for card in shuffled_deck(seed)] == documented_shuffle(seed)


def test_seed_types_are_kept_apart() -> None:
    decks = [shuffled_deck(seed) for seed in (7, "7", b"7")]

    assert decks[0] != decks[1] != decks[2] != decks[0]


@pytest.mark.parametrize("seed", [True, 1.5, None])
def test_seed_of_another_type_is_refused(seed: Any) -> None:
    with pytest.raises(TypeError):
        shuffled_deck(seed)
