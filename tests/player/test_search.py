"""The search's shortcuts agree with the engine they stand in for."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from engine import CARDS, Board, Game, Status
from engine.grid import COL_OTHERS, ROW_OTHERS, cells_of
from engine.player.search import DEFAULT_MODEL, Searcher, SearchResult, line_summary

LOST = Status.LOST


def grids(deals: range, per_deal: int = 6) -> list[Game]:
    """Unfinished games from random play, a few per deal, taken at random moments."""
    games: list[Game] = []
    for seed in deals:
        chooser = random.Random(seed)
        game = Game.from_seed(seed)
        while not game.is_over:
            if chooser.random() < per_deal / 20:
                games.append(game.copy())
            safe = [p for p in game.legal_placements() if game.copy().place(p).status is not LOST]
            game.place(chooser.choice(safe or game.legal_placements()))
    return games


def unseen_by_rank(board: Board) -> dict[int, int]:
    """One unseen card (current card or stock) of each rank that has one, as card numbers."""
    return {CARDS[card].rank: card for card in board.unseen()}


def test_the_line_summaries_predict_every_placement_of_every_rank() -> None:
    checked = 0
    for game in grids(range(40)):
        board = game.board()
        occupied, up, _, legal, _ = board.bitboards()
        before = board.face_down_count
        for cell in cells_of(legal):
            safe_row, flip_row = line_summary(board, occupied & ROW_OTHERS[cell], up)
            safe_col, flip_col = line_summary(board, occupied & COL_OTHERS[cell], up)
            fixes = -1 if (occupied & ~up) >> cell & 1 else 0
            for rank, card in unseen_by_rank(board).items():
                bit = 1 << (rank - 1)
                predicted = fixes
                predicted += 0 if safe_row & bit else flip_row
                predicted += 0 if safe_col & bit else flip_col
                trial = board.with_next_card(card)
                trial.place(cell)
                assert trial.face_down_count - before == predicted
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("seed", [1, 2])
def test_leaf_values_do_not_depend_on_what_the_cache_saw_before(seed: int) -> None:
    game = grids(range(seed, seed + 1), per_deal=20)[8]
    unseen = game.public_view().unseen_cards()
    board = game.board()
    children = []
    for cell in cells_of(board.legal_mask()):
        child = board.copy()
        if child.place(cell) is Status.IN_PROGRESS:
            cards = list(unseen_by_rank(child).values())
            for reply in cells_of(child.legal_mask()):
                grandchild = child.with_next_card(cards[reply % len(cards)])
                if grandchild.place(reply) is Status.IN_PROGRESS:
                    children.append((grandchild, 1 << cell | 1 << reply))
    assert len(children) > 20

    def values(order: list[tuple[Board, int]]) -> dict[int, tuple[float, float]]:
        searcher = Searcher(board, unseen)
        table = searcher.rank_chances(searcher.counts)
        return {id(g): searcher.leaf(g, table, changed, g.top_ranks) for g, changed in order}

    assert values(children) == values(children[::-1])


def test_deeper_estimates_rank_first_then_utility_then_cell() -> None:
    result = SearchResult(
        cells=(10, 11, 12, 13),
        win=(1.0, 0.9, 0.9, 0.5),
        score=(20.0, 10.0, 10.0, 5.0),
        depth=(2, 3, 3, 3),
        placements=0,
        leaves=0,
        win_weight=40.0,
    )
    assert result.ranking() == [1, 2, 3, 0]


def test_every_leaf_gets_the_top_ranks_of_its_own_game(monkeypatch: pytest.MonkeyPatch) -> None:
    # The search keeps one list of top ranks up to date instead of a snapshot per child.
    leaf = Searcher.leaf
    seen = 0

    def checked(
        self: Searcher, board: Board, table: list[float], changed: int, top: Sequence[int]
    ) -> tuple[float, float]:
        nonlocal seen
        seen += 1
        assert tuple(top) == board.top_ranks
        return leaf(self, board, table, changed, top)

    monkeypatch.setattr(Searcher, "leaf", checked)
    for game in grids(range(2), per_deal=1)[:3]:
        result = Searcher(game.board(), game.public_view().unseen_cards()).run(12_000)
        assert max(result.depth) == 3
    assert seen > 1000


def test_rank_chances_are_the_share_of_unseen_cards_with_a_rank_in_the_mask() -> None:
    game = Game.from_seed(3)
    searcher = Searcher(game.board(), game.public_view().unseen_cards())
    chooser = random.Random(3)
    for _ in range(50):
        counts = [0] + [chooser.randint(0, 4) for _ in range(10)]
        total = sum(counts) or 1
        table = searcher.rank_chances(counts)
        assert len(table) == 1024
        for mask in range(1024):
            share = sum(counts[rank] for rank in range(1, 11) if mask >> (rank - 1) & 1) / total
            assert table[mask] == pytest.approx(share, abs=1e-12)


def test_the_model_estimates_a_position_from_its_counts() -> None:
    model = DEFAULT_MODEL
    assert model.estimate(0, 0, 16, 19) == (1.0, 21.0)  # won: the cards left
    assert model.estimate(5, 0, 12, 14) == (0.0, 0.0)  # more than four face down
    assert model.estimate(0, 0, 8, 33) == (0.0, 0.0)  # 7 cards left for 8 empty cells
    p, e = model.estimate(2, 1, 12, 14)
    assert p == pytest.approx(0.985 * 0.8)
    assert e == pytest.approx(p * (26 - 1.25 * 4 - 2.6 - 1.5))
    # A stuck pile counts only while there are face-down piles for it to be.
    assert model.estimate(1, 3, 12, 14)[0] == pytest.approx(0.995 * 0.8)
