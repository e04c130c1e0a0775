"""The player's default effort is one figure: the hint's, the simulation's and the README's.

The README reports the strength ``foursquare simulate --policy best`` measures with no budget
flag; a hint is only as strong as that if it runs at the same effort, and if the same position
always gets the same advice at that effort.
"""

from __future__ import annotations

import multiprocessing
import random

import pytest

from api.settings import Settings
from engine import Game, PublicView, Status
from engine.player import DEFAULT_BUDGETS, DEFAULT_PLACEMENTS, Advice, Policy, advise
from engine.player.simulate import main

LOST = Status.LOST


def test_the_hint_and_the_simulation_default_to_the_same_effort(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("FOURSQUARE_HINT_PLACEMENTS", raising=False)
    assert Settings(_env_file=None).hint_placements == DEFAULT_PLACEMENTS  # type: ignore[call-arg]
    assert DEFAULT_BUDGETS[Policy.BEST].placements == DEFAULT_PLACEMENTS
    assert DEFAULT_BUDGETS[Policy.BEST].milliseconds is None  # effort only: machine-independent
    assert main(["--games", "1", "--seed", "5", "--policy", "best", "--no-progress"]) == 0
    first_line = capsys.readouterr().out.splitlines()[0]
    assert first_line.startswith(f"policy best, budget {DEFAULT_PLACEMENTS} placements, ")


def positions() -> list[PublicView]:
    """Views from a few deals at several stages (random play that avoids losing at once)."""
    views: list[PublicView] = []
    for seed in (21, 22):
        game = Game.from_seed(seed)
        chooser = random.Random(seed)
        while not game.is_over and game.placements_count < 14:
            if game.placements_count in (3, 8, 13):
                views.append(game.public_view())
            options = [
                p for p in game.legal_placements() if game.copy().place(p).status is not LOST
            ]
            game.place(chooser.choice(options or game.legal_placements()))
    return views


def advise_all(views: list[PublicView]) -> list[Advice]:
    return [advise(view) for view in views]


@pytest.mark.slow  # the default effort over many positions, twice, once in a new process
def test_default_advice_is_the_same_in_any_order_and_in_a_fresh_process() -> None:
    views = positions()
    assert len(views) == 6
    here = advise_all(views)
    assert all(a.simulated_placements <= DEFAULT_PLACEMENTS for a in here)
    assert advise_all(views[::-1])[::-1] == here  # no state carried from one advice to the next
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        assert pool.apply(advise_all, (views,)) == here
