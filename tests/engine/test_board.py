"""The board a computer player simulates on (cells, masks, card numbers) is the same game as the
public one, checks what it is given as the game does, and cannot bring a position into a state
the rules never reach. The game itself keeps none of it on its own surface."""

from __future__ import annotations

import random

import pytest

from engine import CARDS, Board, Game, IllegalPlacement, InvalidDeck
from engine.grid import (
    CELL_OF,
    CELLS,
    COL_OTHERS,
    N_SLOTS,
    POSITION,
    ROW_OTHERS,
    cells_of,
    positions_of,
)

# The fast path the game used to carry: the board's now (place_cell is Board.place, and the
# masks come together from Board.bitboards).
ON_THE_BOARD = (
    "legal_mask",
    "bitboards",
    "redeal",
    "with_next_card",
    "top_ranks",
    "pile_height",
    "quiet_ranks",
)
GONE = ("place_cell", "face_up_mask", "open_mask")


def random_games(seeds: range) -> list[tuple[Game, random.Random]]:
    return [(Game.from_seed(seed), random.Random(seed)) for seed in seeds]


def check_reads(game: Game) -> None:
    """The board's masks, ranks, heights and reads say what the game's piles say."""
    board = game.board()
    piles = {CELL_OF[pile.position]: pile for pile in game.piles}
    occupied, face_up, open_piles, legal, placed = board.bitboards()
    assert cells_of(occupied) == sorted(piles)
    assert cells_of(face_up) == [c for c in sorted(piles) if piles[c].face_up]
    assert cells_of(open_piles) == [c for c in sorted(piles) if len(piles[c].cards) < 4]
    ranks = board.top_ranks
    assert len(ranks) == N_SLOTS
    for cell in CELLS:
        pile = piles.get(cell)
        assert ranks[cell] == (pile.top.rank if pile else 0)
        assert board.pile_height(cell) == (len(pile.cards) if pile else 0)
    assert positions_of(legal) == game.legal_placements()
    assert legal == board.legal_mask()
    assert placed == board.placements_count == game.placements_count
    assert board.status is game.status
    assert board.is_over == game.is_over
    assert board.stock_count == game.stock_count
    assert board.face_down_count == game.face_down_count
    assert [CARDS[n] for n in board.unseen()] == list(game.deck[game.placements_count :])


def test_the_game_keeps_the_fast_path_off_its_surface() -> None:
    game = Game.from_seed(0)
    for name in [*ON_THE_BOARD, *GONE]:
        assert not hasattr(game, name), name
    board = game.board()
    assert all(hasattr(board, name) for name in ON_THE_BOARD)
    assert not any(hasattr(board, name) for name in GONE)
    assert isinstance(game.board(), Board)
    assert not isinstance(game.board(), Game)


def test_a_board_plays_exactly_like_the_game() -> None:
    finished = 0
    for game, chooser in random_games(range(30)):
        twin = game.board()
        while not game.is_over:
            check_reads(game)
            position = chooser.choice(game.legal_placements())
            result = game.place(position)
            assert twin.place(CELL_OF[position]) is result.status
            assert twin == game.board()
            assert twin.face_down_count == result.face_down_count
        check_reads(game)
        assert game.board().legal_mask() == twin.legal_mask() == 0
        finished += 1
    assert finished == 30


def test_a_board_is_a_copy_and_leaves_its_game_alone() -> None:
    game, chooser = random_games(range(1))[0]
    for _ in range(5):
        game.place(chooser.choice(game.legal_placements()))
    before = game.to_dict()
    board = game.board()
    copy = board.copy()
    board.place(cells_of(board.legal_mask())[0])
    assert game.to_dict() == before
    assert copy == game.board() != board
    assert board != game  # a board and a game are different things, even in one position


@pytest.mark.parametrize("placements", [0, 1, 5, 12, 40])
def test_a_board_refuses_what_the_game_refuses_and_changes_nothing(placements: int) -> None:
    refused = 0
    for game, chooser in random_games(range(8)):
        for _ in range(placements):
            if game.is_over:
                break
            game.place(chooser.choice(game.legal_placements()))
        before = game.to_dict()
        board = game.board()
        for cell in [*CELLS, 7, N_SLOTS, -1]:  # 7 is padding between two window rows
            if cell >= 0 and board.legal_mask() >> cell & 1:
                continue
            with pytest.raises(IllegalPlacement) as refusal:
                board.place(cell)
            position = POSITION[cell] if 0 <= cell < N_SLOTS else None
            if position is not None:
                with pytest.raises(IllegalPlacement) as same:
                    game.place(position)
                assert type(refusal.value) is type(same.value)
                assert refusal.value.message == same.value.message
            assert game.to_dict() == before
            assert board == game.board()
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


def dealt_again(game: Game, unseen: list[int]) -> Game:
    """``game`` with its unseen cards in the order ``unseen``, through the checks of
    :meth:`Game.from_dict` (which refuse any state the rules could not reach)."""
    state = game.to_dict()
    state["deck"] = state["deck"][: game.placements_count] + [CARDS[n].code for n in unseen]
    return Game.from_dict(state)


@pytest.mark.parametrize("placements", [0, 7])
def test_redeal_reorders_the_unseen_cards_of_a_copy(placements: int) -> None:
    game = mid_game(3, placements)
    board = game.board()
    unseen = unseen_numbers(game)
    random.Random(1).shuffle(unseen)
    dealt = board.redeal(unseen)
    assert board == game.board()
    assert dealt.unseen() == unseen
    # The same grid and the same cards placed; a deal the rules accept.
    assert dealt == dealt_again(game, unseen).board()
    dealt.place(cells_of(dealt.legal_mask())[0])
    assert board == game.board()


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
    board = game.board()
    with pytest.raises(InvalidDeck):
        board.redeal(bad_orders(game)[case])
    assert board == game.board()


def test_redeal_takes_card_numbers_only() -> None:
    board = mid_game(4, 2).board()
    unseen: list[object] = list(board.unseen())
    unseen[-1] = float(unseen[-1])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        board.redeal(unseen)  # type: ignore[arg-type]


def test_with_next_card_draws_that_card_and_keeps_the_others_in_order() -> None:
    game = mid_game(5, 9)
    board = game.board()
    unseen = unseen_numbers(game)
    for card in unseen:
        drawn = board.with_next_card(card)
        order = [card] + [c for c in unseen if c != card]
        assert drawn.unseen() == order
        assert drawn == dealt_again(game, order).board()
    assert board == game.board()


def test_with_next_card_refuses_a_card_that_is_not_unseen() -> None:
    game = mid_game(5, 9)
    board = game.board()
    for card in [game.deck[0].index, game.deck[8].index, 40, -1]:
        with pytest.raises(InvalidDeck):
            board.with_next_card(card)
    assert board == game.board()


def test_reads_are_snapshots_that_cannot_change_the_board() -> None:
    game = mid_game(6, 4)
    board = game.board()
    ranks = board.top_ranks
    assert isinstance(ranks, tuple)
    unseen = board.unseen()
    unseen.reverse()
    assert board.unseen() == unseen_numbers(game)
    occupied = board.bitboards()[0]
    cell = next(c for c in cells_of(board.legal_mask()) if not occupied >> c & 1)
    board.place(cell)
    assert ranks[cell] == 0 < board.top_ranks[cell]
    with pytest.raises(AttributeError):
        board.top_ranks = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        board.occupied = 0  # type: ignore[attr-defined]
    for cell in (-1, N_SLOTS):
        with pytest.raises(IndexError):
            board.pile_height(cell)


def flips_by_the_book(game: Game, cells: int, rank: int) -> bool:
    """RULES.md, step 3, read plainly: a card of ``rank`` placed in a line whose other piles
    are the piles among ``cells`` turns them over when no face-up top among them is as high, or
    none is as low (or none is face up)."""
    tops = [p.top.rank for p in game.piles if p.face_up and cells >> CELL_OF[p.position] & 1]
    return all(top < rank for top in tops) or all(top > rank for top in tops)


def test_quiet_ranks_is_the_flip_rule_of_the_book() -> None:
    checked = 0
    for game, chooser in random_games(range(40)):
        while not game.is_over:
            board = game.board()
            occupied = board.bitboards()[0]
            for cell in cells_of(board.legal_mask()):
                for others in (occupied & ROW_OTHERS[cell], occupied & COL_OTHERS[cell]):
                    quiet = board.quiet_ranks(others)
                    for rank in range(1, 11):
                        flips = bool(others) and flips_by_the_book(game, others, rank)
                        assert (not quiet >> (rank - 1) & 1) == flips or not others
                        checked += 1
                    if not others:
                        assert quiet == (1 << 10) - 1  # nothing to turn over: every rank is quiet
            game.place(chooser.choice(game.legal_placements()))
    assert checked > 10_000


def test_quiet_ranks_looks_only_at_piles() -> None:
    board = mid_game(5, 9).board()
    occupied = board.bitboards()[0]
    for cell in CELLS:
        line = ROW_OTHERS[cell] | COL_OTHERS[cell]  # any cells, piles or not
        assert board.quiet_ranks(line) == board.quiet_ranks(line & occupied)
    assert board.quiet_ranks(-1) == board.quiet_ranks(occupied)
