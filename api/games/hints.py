"""Hints: the computer player's advice on a game in progress, which marks the game assisted."""

from __future__ import annotations

from sqlalchemy.orm import Session

from api import metrics
from api.clock import now
from api.errors import ChallengeHintsRefused, GameIsOver, VersionConflict
from api.games.advice_pool import AdvicePool
from api.games.games import LoadedGame, render
from api.store import repository
from engine.game import PublicView
from engine.player.advice import Advice, Budget, Policy, advise


def _question(loaded: LoadedGame) -> tuple[PublicView, int]:
    """What the computer player is told: the public view (never the stock's order) and a seed
    fixed by the game, so that the same state always gets the same advice."""
    if loaded.game.is_over:
        raise GameIsOver(f"the game is over ({loaded.game.status.value}); there is nothing to hint")
    if loaded.row.challenge_date is not None:
        # One deal for everybody, ranked on its own board: it is played unaided.
        raise ChallengeHintsRefused(
            "the daily challenge is played without hints; this game was not changed"
        )
    return loaded.game.public_view(), loaded.row.id.int & 0xFFFFFFFF


def compute_hint(loaded: LoadedGame, budget: Budget) -> Advice:
    """The computer player's advice, computed in this process."""
    view, seed = _question(loaded)
    with metrics.timing_hint():
        return advise(view, policy=Policy.BEST, seed=seed, budget=budget)


async def pooled_hint(pool: AdvicePool, loaded: LoadedGame, budget: Budget) -> Advice:
    """The same advice as :func:`compute_hint`, computed in one of ``pool``'s workers."""
    view, seed = _question(loaded)
    with metrics.timing_hint():  # its time in the pool, waiting included
        return await pool.advise(view, seed=seed, budget=budget)


def mark_assisted(session: Session, loaded: LoadedGame) -> int:
    """Mark a game assisted (bumping its version), if it still is at the version read; return
    its version."""
    row = loaded.row
    if row.assisted:
        if repository.get_game_version(session, row.id) != row.version:
            raise VersionConflict("the game changed while the hint was computed; ask again")
        return row.version
    after = render(
        row._replace(assisted=True, version=row.version + 1, updated_at=now()), loaded.game
    )
    values = {
        "assisted": True,
        "updated_at": after.updated_at,
        "public_json": after.public_json,
        "public_format": after.public_format,
    }
    if not repository.update_game_if_version(session, row.id, row.version, values):
        raise VersionConflict("the game changed while the hint was computed; ask again")
    return after.version
