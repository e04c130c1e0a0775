"""Hints: the computer player's advice on a game in progress, which marks the game assisted."""

from __future__ import annotations

from api.core.schemas import PositionOut
from api.games import GameIsOver, GameService, LoadedGame, RaceNotOver
from api.hints.errors import ChallengeHintsRefused
from api.hints.pool import AdvicePool, Keys, Place
from api.hints.schemas import Hint, HintOption
from api.ops import metrics
from engine.game import PublicView
from engine.player.advice import Advice, Budget, Estimate


def question(loaded: LoadedGame) -> tuple[PublicView, int]:
    """What the computer player is told: the public view (never the stock's order) and a seed
    fixed by the game, so that the same state always gets the same advice."""
    if loaded.game.is_over:
        raise GameIsOver(f"the game is over ({loaded.game.status.value}); there is nothing to hint")
    if loaded.row.sealed:
        raise RaceNotOver(
            "a race or a tournament is played without hints; this game was not changed"
        )
    if loaded.row.challenge_date is not None:
        # One deal for everybody, ranked on its own board: it is played unaided.
        raise ChallengeHintsRefused(
            "the daily challenge is played without hints; this game was not changed"
        )
    return loaded.game.public_view(), loaded.row.id.int & 0xFFFFFFFF


class HintService:
    """Hints, computed in the worker processes of an :class:`AdvicePool`."""

    def __init__(self, games: GameService, pool: AdvicePool, budget: Budget) -> None:
        self.games = games
        self.pool = pool
        self.budget = budget

    def admit(self, keys: Keys) -> Place:
        """A place in the workers' pool for the client ``keys`` (``503 hints_busy`` when it
        holds its share, or the pool is full): taken before anything else is done for the
        request, so that a refusal for capacity costs nothing, its rate limit included."""
        return self.pool.admit(keys)

    def release(self, place: Place) -> None:
        """The place back, if its hint never reached a worker (idempotent)."""
        self.pool.release(place)

    async def hint(self, game_id: str, token: str | None, place: Place) -> tuple[Hint, int]:
        """Advice for the game's current card (the game's token or its player's key), in
        ``place``, and the game's version once it is marked assisted (once)."""
        loaded = await self.games.load(game_id, token, player=True)
        view, seed = question(loaded)
        with metrics.timing_hint():  # its time in the pool, waiting included
            advice = await self.pool.advise(view, seed=seed, budget=self.budget, place=place)
        version = await self.games.mark_assisted(loaded)
        return _hint(advice), version


def _option(estimate: Estimate) -> HintOption:
    return HintOption(
        placement=PositionOut.of((estimate.position.row, estimate.position.col)),
        win_probability=estimate.win_probability,
        expected_score=estimate.expected_score,
    )


def _hint(advice: Advice) -> Hint:
    """The advised placement, then every other legal one."""
    best, *others = [_option(estimate) for estimate in advice.estimates]
    return Hint(
        placement=best.placement,
        win_probability=best.win_probability,
        expected_score=best.expected_score,
        alternatives=others,
        policy=advice.policy.value,
        simulated_placements=advice.simulated_placements,
    )
