"""The search's shortcuts agree with the engine they stand in for."""

from __future__ import annotations

import random

import pytest

from engine import Game, Status
from engine.grid import COL_OTHERS, ROW_OTHERS, cells_of
from engine.player.search import _RANK_DECKS, Searcher, SearchResult, _line

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


def test_the_line_summaries_predict_every_placement_of_every_rank() -> None:
    checked = 0
    for game in grids(range(40)):
        occupied, up, top = game._occupied, game._up, game._top
        before = (occupied & ~up).bit_count()
        for cell in cells_of(game._legal_mask()):
            safe_row, flip_row = _line(occupied & ROW_OTHERS[cell], up, top)
            safe_col, flip_col = _line(occupied & COL_OTHERS[cell], up, top)
            fixes = -1 if (occupied & ~up) >> cell & 1 else 0
            for rank in range(1, 11):
                bit = 1 << (rank - 1)
                predicted = fixes
                predicted += 0 if safe_row & bit else flip_row
                predicted += 0 if safe_col & bit else flip_col
                trial = game.copy()
                trial._deck = _RANK_DECKS[rank]
                trial._apply(cell)
                assert (trial._occupied & ~trial._up).bit_count() - before == predicted
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("seed", [1, 2])
def test_leaf_values_do_not_depend_on_what_the_cache_saw_before(seed: int) -> None:
    game = grids(range(seed, seed + 1), per_deal=20)[8]
    unseen = [card.rank for card in game.public_view().unseen_cards()]
    children = []
    for cell in cells_of(game._legal_mask()):
        child = game.copy()
        child._apply(cell)
        if not child._status:
            for reply in cells_of(child._legal_mask()):
                grandchild = child.copy()
                grandchild._deck = _RANK_DECKS[1 + reply % 10]
                grandchild._apply(reply)
                if not grandchild._status:
                    children.append((grandchild, 1 << cell | 1 << reply))
    assert len(children) > 20

    def values(order: list[tuple[Game, int]]) -> dict[int, tuple[float, float]]:
        searcher = Searcher(game, unseen)
        table = searcher._table(searcher.counts)
        return {id(g): searcher._leaf(g, table, changed) for g, changed in order}

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
