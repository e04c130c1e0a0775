"""The fast path a computer player uses (cells, masks, card numbers) is the same game as the
public one and cannot bring a game into a state the rules never reach."""

from __future__ import annotations

import random

import pytest

from engine import CARDS, Game, IllegalPlacement, InvalidDeck
from engine.grid import CELL_OF, CELLS, N_SLOTS, POSITION, cells_of, positions_of


def random_games(seeds: range) -> list[tuple[Game, random.Random]]:
    return [(Game.from_seed(seed), random.Random(seed)) for seed in seeds]


def check_reads(game: Game) -> None:
    """The masks, ranks and heights say what :attr:`Game.piles` says."""
    piles = {CELL_OF[pile.position]: pile for pile in game.piles}
    assert cells_of(game.occupied_mask) == sorted(piles)
    assert cells_of(game.face_up_mask) == [c for c in sorted(piles) if piles[c].face_up]
    assert cells_of(game.open_mask) == [c for c in sorted(piles) if len(piles[c].cards) < 4]
    ranks = game.top_ranks
    assert len(ranks) == N_SLOTS
    for cell in CELLS:
        pile = piles.get(cell)
        assert ranks[cell] == (pile.top.rank if pile else 0)
        assert game.pile_height(cell) == (len(pile.cards) if pile else 0)
    assert positions_of(game.legal_mask()) == game.legal_placements()
    assert game.bitboards() == (
        game.occupied_mask,
        game.face_up_mask,
        game.open_mask,
        game.legal_mask(),
        game.placements_count,
    )


def test_place_cell_plays_exactly_like_place() -> None:
    finished = 0
    for game, chooser in random_games(range(30)):
        twin = game.copy()
        while not game.is_over:
            check_reads(game)
            position = chooser.choice(game.legal_placements())
            result = game.place(position)
            assert twin.place_cell(CELL_OF[position]) is result.status
            assert twin == game
            assert twin.to_dict() == game.to_dict()
        check_reads(game)
        assert game.legal_mask() == 0
        finished += 1
    assert finished == 30


@pytest.mark.parametrize("placements", [0, 1, 5, 12, 40])
def test_place_cell_refuses_what_place_refuses_and_changes_nothing(placements: int) -> None:
    refused = 0
    for game, chooser in random_games(range(8)):
        for _ in range(placements):
            if game.is_over:
                break
            game.place(chooser.choice(game.legal_placements()))
        before = game.to_dict()
        for cell in [*CELLS, 7, N_SLOTS, -1]:  # 7 is padding between two window rows
            if cell >= 0 and game.legal_mask() >> cell & 1:
                continue
            with pytest.raises(IllegalPlacement) as refusal:
                game.place_cell(cell)
            position = POSITION[cell] if 0 <= cell < N_SLOTS else None
            if position is not None:
                with pytest.raises(IllegalPlacement) as same:
                    game.place(position)
                assert type(refusal.value) is type(same.value)
                assert refusal.value.message == same.value.message
            assert game.to_dict() == before
            refused += 1
    assert refused > 300


def mid_game(seed: int, placements: int) -> Game:
    game, chooser = Game.from_seed(seed), random.Random(seed)
    for _ in range(placements):
        game.place(chooser.choice(game.legal_placements()))
    assert not game.is_over
    return game


def unseen_numbers(game: Game) -> list[int]:
    return [card.index for card in game.deck[game.placements_count :]]


@pytest.mark.parametrize("placements", [0, 7])
def test_redeal_reorders_the_unseen_cards_of_a_copy(placements: int) -> None:
    game = mid_game(3, placements)
    before = game.to_dict()
    unseen = unseen_numbers(game)
    random.Random(1).shuffle(unseen)
    dealt = game.redeal(unseen)
    assert game.to_dict() == before
    assert dealt.deck[: game.placements_count] == game.deck[: game.placements_count]
    assert [card.index for card in dealt.deck[game.placements_count :]] == unseen
    assert dealt.public_view().piles == game.public_view().piles
    assert dealt.current_card == CARDS[unseen[0]]
    assert Game.from_dict(dealt.to_dict()) == dealt  # a state the rules accept
    dealt.place(dealt.legal_placements()[0])
    assert game.to_dict() == before


def bad_orders(game: Game) -> list[list[int]]:
    unseen = unseen_numbers(game)
    placed = [card.index for card in game.deck[: game.placements_count]]
    return [
        unseen[1:],  # a card missing
        [*unseen, unseen[0]],  # one more
        [unseen[0], *unseen[:-1]],  # a card twice, one lost
        [placed[0], *unseen[1:]],  # a card already on the grid
        [*unseen[:-1], 40],  # no such card
    ]


@pytest.mark.parametrize("case", range(5))
def test_redeal_refuses_anything_but_the_unseen_cards(case: int) -> None:
    game = mid_game(4, 6)
    before = game.to_dict()
    with pytest.raises(InvalidDeck):
        game.redeal(bad_orders(game)[case])
    assert game.to_dict() == before


def test_redeal_takes_card_numbers_only() -> None:
    game = mid_game(4, 2)
    unseen: list[object] = list(unseen_numbers(game))
    unseen[-1] = float(unseen[-1])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        game.redeal(unseen)  # type: ignore[arg-type]


def test_with_next_card_draws_that_card_and_keeps_the_others_in_order() -> None:
    game = mid_game(5, 9)
    before = game.to_dict()
    unseen = unseen_numbers(game)
    for card in unseen:
        drawn = game.with_next_card(card)
        assert unseen_numbers(drawn) == [card] + [c for c in unseen if c != card]
        assert drawn.current_card == CARDS[card]
        assert Game.from_dict(drawn.to_dict()) == drawn
    assert game.to_dict() == before


def test_with_next_card_refuses_a_card_that_is_not_unseen() -> None:
    game = mid_game(5, 9)
    before = game.to_dict()
    for card in [game.deck[0].index, game.deck[8].index, 40, -1]:
        with pytest.raises(InvalidDeck):
            game.with_next_card(card)
    assert game.to_dict() == before


def test_reads_are_snapshots_that_cannot_change_the_game() -> None:
    game = mid_game(6, 4)
    ranks = game.top_ranks
    assert isinstance(ranks, tuple)
    cell = next(c for c in cells_of(game.legal_mask()) if not game.occupied_mask >> c & 1)
    game.place_cell(cell)
    assert ranks[cell] == 0 < game.top_ranks[cell]
    with pytest.raises(AttributeError):
        game.occupied_mask = 0  # type: ignore[misc]
