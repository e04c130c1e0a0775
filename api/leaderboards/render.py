"""The leaderboards' responses, rendered from the service's pages and standings."""

from __future__ import annotations

from api.leaderboards.schemas import Around, Leaderboard, LeaderboardEntry
from api.leaderboards.service import Page, RankedScore, Standing, Window


def entry_out(entry: RankedScore) -> LeaderboardEntry:
    score = entry.score
    return LeaderboardEntry(
        rank=entry.rank,
        player=score.player,
        score=score.score,
        game_id=score.game_id,
        finished_at=score.finished_at,
        assisted=score.assisted,
    )


def _window(window: Window | None) -> dict[str, object]:
    if window is None:  # a daily challenge's board: one day, every game
        return {}
    return {
        "period": window.period,
        "starts_on": window.starts_on,
        "ends_on": window.ends_on,
        "per_player": "best" if window.per_player else None,
    }


def leaderboard_out(page: Page) -> Leaderboard:
    return Leaderboard.model_validate(
        {
            "entries": [entry_out(entry) for entry in page.entries],
            "next_cursor": page.next_cursor,
            **_window(page.window),
        }
    )


def page_json(page: Page) -> bytes:
    return leaderboard_out(page).model_dump_json().encode()


def around_out(standing: Standing) -> Around:
    return Around.model_validate(
        {
            "game_id": standing.game_id,
            "rank": standing.rank,
            "size": standing.size,
            "entries": [entry_out(entry) for entry in standing.entries],
            **_window(standing.window),
        }
    )
