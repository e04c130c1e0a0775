"""Serialised states, the public view, the end of the game and the rejections around them."""

from __future__ import annotations

import copy
from dataclasses import fields
from typing import Any

import pytest

from engine import (
    CARDS,
    EngineError,
    Game,
    GameOver,
    GridTooLarge,
    IllegalPlacement,
    InvalidCard,
    InvalidDeck,
    InvalidState,
    NotAdjacent,
    NotOrigin,
    PileFull,
    Position,
    PublicView,
    Status,
    replay,
)
from tests.engine.factories import (
    WORKED_EXAMPLE_PILES,
    load_vectors,
    pile,
    state_dict,
    worked_example,
)

VECTORS: list[dict[str, Any]] = load_vectors()["games"]


def vector_positions(vector: dict[str, Any]) -> list[tuple[int, int]]:
    return [(step["row"], step["col"]) for step in vector["steps"]]


def finished_game(status: str, end_reason: str | None) -> Game:
    """The first conformance game that ends this way, played to its end."""
    vector = next(
        v
        for v in VECTORS
        if (v["final"]["status"], v["final"]["end_reason"]) == (status, end_reason)
    )
    return replay(vector["deck"], vector_positions(vector))


def mid_game(seed: int = 0, placements: int = 6) -> Game:
    """A game some placements in: always on the first legal position."""
    game = Game.from_seed(seed)
    for _ in range(placements):
        game.place(game.legal_placements()[0])
    return game


# ------------------------------------------------------------------ errors


def test_every_engine_error_is_a_value_error_with_its_own_code() -> None:
    errors = [InvalidCard, InvalidDeck, InvalidState, NotAdjacent, GridTooLarge, PileFull, GameOver]
    codes = [error.code for error in errors]

    assert all(issubclass(error, EngineError) and issubclass(error, ValueError) for error in errors)
    assert all(issubclass(error, IllegalPlacement) for error in errors[3:])
    assert len(set(codes)) == len(codes)
    assert codes[3:] == ["not_adjacent", "grid_too_large", "pile_full", "game_over"]


# ------------------------------------------------------------------ from_dict / to_dict


def corrupt(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    """A deep copy of ``data`` with the item at ``path`` set to ``value``."""
    data = copy.deepcopy(data)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


GOOD = state_dict(WORKED_EXAMPLE_PILES, upcoming=["6D"])  # 7 piles, one card each

CORRUPTED_STATES = [
    pytest.param(corrupt(GOOD, ("format",), 2), "format", id="unknown-format"),
    pytest.param(corrupt(GOOD, ("format",), "1"), "format", id="format-as-text"),
    pytest.param({k: v for k, v in GOOD.items() if k != "format"}, "format", id="no-format"),
    pytest.param([GOOD], "mapping", id="not-a-mapping"),
    pytest.param({k: v for k, v in GOOD.items() if k != "piles"}, "malformed", id="no-piles"),
    pytest.param(corrupt(GOOD, ("piles",), None), "malformed", id="piles-not-a-list"),
    pytest.param(corrupt(GOOD, ("deck", 39), "AC"), "malformed", id="deck-duplicate"),
    pytest.param(corrupt(GOOD, ("placed",), 6), "first 6 cards", id="card-missing-from-piles"),
    pytest.param(corrupt(GOOD, ("placed",), 8), "first 8 cards", id="card-on-piles-not-played"),
    pytest.param(
        corrupt(GOOD, ("piles", 6, "cards"), ["9S"]), "first 7 cards", id="card-duplicated"
    ),
    pytest.param(corrupt(GOOD, ("placed",), -1), "placed", id="placed-negative"),
    pytest.param(corrupt(GOOD, ("placed",), 41), "placed", id="placed-too-large"),
    pytest.param(corrupt(GOOD, ("placed",), True), "placed", id="placed-bool"),
    pytest.param(corrupt(GOOD, ("piles", 1, "cards"), []), "1 to 4", id="empty-pile"),
    pytest.param(corrupt(GOOD, ("piles", 1, "face_up"), "yes"), "face_up", id="face-up-not-bool"),
    pytest.param(corrupt(GOOD, ("piles", 1, "cards"), ["XX"]), "malformed", id="bad-card-code"),
    pytest.param(corrupt(GOOD, ("piles", 1, "row"), "0"), "integer", id="row-as-text"),
    pytest.param(corrupt(GOOD, ("piles", 1, "row"), False), "integer", id="row-as-bool"),
    pytest.param(corrupt(GOOD, ("piles", 1, "col"), 0), "two piles", id="two-piles-one-place"),
    pytest.param(
        state_dict([pile(0, 0, "AC", "2C", "3C", "4C", "5C")]), "1 to 4", id="pile-of-five"
    ),
    pytest.param(
        state_dict([pile(0, c, CARDS[c + 2].code) for c in range(-2, 3)]),
        "4 rows or 4 columns",
        id="five-columns-wide",
    ),
    pytest.param(
        state_dict([pile(r, 0, CARDS[r + 4].code) for r in range(-4, 1)]),
        "outside",
        id="pile-outside-any-4x4",
    ),
    pytest.param(
        state_dict([pile(0, 0, "AC"), pile(0, 2, "2C")]), "connected", id="disconnected-pile"
    ),
    pytest.param(state_dict([pile(0, 0, "AC"), pile(1, 1, "2C")]), "connected", id="diagonal-only"),
    pytest.param(state_dict([pile(0, 1, "AC"), pile(0, 2, "2C")]), "(0, 0)", id="no-pile-at-0-0"),
]


@pytest.mark.parametrize(("data", "message"), CORRUPTED_STATES)
def test_from_dict_rejects_a_corrupted_state(data: Any, message: str) -> None:
    with pytest.raises(InvalidState) as raised:
        Game.from_dict(data)

    assert raised.value.code == "invalid_state"
    assert message in str(raised.value)


@pytest.mark.parametrize(
    "piles",
    [
        pytest.param([pile(0, 0, "AC")], id="one-pile"),
        pytest.param(
            [pile(0, 0, "AC"), pile(0, 1, "2C", up=False), pile(1, 0, "3C"), pile(1, 1, "4C")],
            id="square",  # a pile reached from two sides at once
        ),
        pytest.param(
            [pile(r, c, CARDS[4 * r + c].code) for r in range(4) for c in range(4)],
            id="full-grid",
        ),
        pytest.param(
            [pile(0, 0, "AC", "AD", "AH", "AS"), pile(0, -1, "2C"), pile(-1, -1, "3C", "3D")],
            id="negative-coordinates-and-a-full-pile",
        ),
    ],
)
def test_valid_state_round_trips_through_dict(piles: list[dict[str, Any]]) -> None:
    data = state_dict(piles)

    game = Game.from_dict(data)

    assert game.to_dict() == data | {"piles": sorted(piles, key=lambda p: (p["row"], p["col"]))}
    assert Game.from_dict(game.to_dict()) == game


@pytest.mark.parametrize("index", range(0, len(VECTORS), 10))
def test_conformance_final_state_round_trips_through_dict(index: int) -> None:
    vector = VECTORS[index]
    game = replay(vector["deck"], vector_positions(vector))

    again = Game.from_dict(game.to_dict())

    assert again == game
    assert (again.status, again.end_reason, again.score) == (
        game.status,
        game.end_reason,
        game.score,
    )


def test_full_grid_all_face_up_loads_as_won() -> None:
    piles = [pile(r, c, CARDS[4 * r + c].code) for r in range(4) for c in range(4)]

    game = Game.from_dict(state_dict(piles))

    assert game.status is Status.WON
    assert game.score == 24


def test_state_with_five_face_down_piles_loads_as_lost() -> None:
    piles = [pile(0, c, CARDS[c].code, up=c == 0) for c in range(4)]
    piles += [pile(1, c, CARDS[4 + c].code, up=False) for c in range(2)]

    game = Game.from_dict(state_dict(piles))

    assert game.status is Status.LOST
    assert game.end_reason == "too_many_face_down"


# ------------------------------------------------------------------ copy and replay


def test_copy_is_independent_of_the_original() -> None:
    game = mid_game()
    before = game.to_dict()

    other = game.copy()
    other.place(other.legal_placements()[-1])

    assert game.to_dict() == before
    assert other != game
    assert other.placements_count == game.placements_count + 1


def test_replay_rebuilds_the_same_game() -> None:
    game = Game.from_seed(5)
    positions = []
    for _ in range(10):
        position = game.legal_placements()[-1]
        game.place(position)
        positions.append(position)

    assert replay(game.deck, positions) == game


# ------------------------------------------------------------------ public view


def test_public_view_holds_no_stock_order() -> None:
    names = {field.name for field in fields(PublicView)}

    assert names.isdisjoint({"deck", "stock"})


def test_public_view_does_not_depend_on_the_stock_order() -> None:
    data = state_dict(WORKED_EXAMPLE_PILES, upcoming=["6D"])
    shuffled = copy.deepcopy(data)
    shuffled["deck"][8:] = reversed(shuffled["deck"][8:])
    game, other = Game.from_dict(data), Game.from_dict(shuffled)

    assert game != other
    assert game.public_view() == other.public_view()


@pytest.mark.parametrize("placements", [0, 1, 6, 12])
def test_unseen_cards_are_the_stock_in_card_order(placements: int) -> None:
    game = mid_game(seed=3, placements=placements)

    view = game.public_view()

    stock = list(game.deck[placements + 1 :])
    assert view.unseen_cards() == sorted(stock)
    assert [card.index for card in view.unseen_cards()] == sorted(c.index for c in stock)
    assert view.stock_count == len(stock) == game.stock_count


def test_public_view_reports_the_game() -> None:
    game = worked_example()

    view = game.public_view()

    assert view.status is Status.IN_PROGRESS
    assert view.current_card == game.current_card
    assert view.piles == game.piles
    assert list(view.legal_placements) == game.legal_placements()
    assert (view.face_down_count, view.placements_count, view.stock_count) == (1, 7, 32)


def test_from_view_rebuilds_the_grid_with_another_stock() -> None:
    game = worked_example()
    view = game.public_view()

    other = Game.from_view(view, list(reversed(view.unseen_cards())))

    assert other.public_view() == view


# ------------------------------------------------------------------ rejections


def test_first_card_must_go_at_the_origin() -> None:
    game = Game.from_seed(3)

    with pytest.raises(NotOrigin, match=r"\(0, 1\)") as raised:
        game.place((0, 1))

    assert raised.value.code == "not_origin"
    assert isinstance(raised.value, NotAdjacent)  # code catching that one still does
    assert game.legal_placements() == [Position(0, 0)]
    assert game.placements_count == 0


def test_placement_on_full_pile_is_rejected() -> None:
    game = Game.from_dict(state_dict([pile(0, 0, "AC", "2C", "3C", "4C")], upcoming=["5C"]))
    before = game.to_dict()

    with pytest.raises(PileFull, match=r"\(0, 0\)") as raised:
        game.place((0, 0))

    assert raised.value.code == "pile_full"
    assert Position(0, 0) not in game.legal_placements()
    assert game.to_dict() == before


def test_fourth_card_fills_a_pile() -> None:
    game = Game.from_dict(state_dict([pile(0, 0, "AC", "2C", "3C")], upcoming=["4C", "5C"]))

    game.place((0, 0))

    assert game.legal_placements() == [(-1, 0), (0, -1), (0, 1), (1, 0)]


@pytest.mark.parametrize(
    ("status", "end_reason"),
    [("won", None), ("lost", "too_many_face_down"), ("lost", "stock_exhausted")],
)
def test_placement_after_the_end_is_rejected(status: str, end_reason: str | None) -> None:
    game = finished_game(status, end_reason)
    before = game.to_dict()

    for position in [(0, 0), (0, 1), (9, 9)]:
        with pytest.raises(GameOver) as raised:
            game.place(position)
        assert raised.value.code == "game_over"
        assert str(Position(*position)) in str(raised.value)

    assert (game.status, game.end_reason) == (status, end_reason)
    assert game.legal_placements() == []
    assert game.current_card is None
    assert game.to_dict() == before


def test_finished_game_reports_score_and_stock() -> None:
    won = finished_game("won", None)
    exhausted = finished_game("lost", "stock_exhausted")

    assert won.score == won.stock_count == 40 - won.placements_count
    assert 0 <= won.score <= 24
    assert exhausted.score is None
    assert exhausted.stock_count == 0
