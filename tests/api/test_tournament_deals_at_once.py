"""Many entrants of one tournament dealing at once, against a real server of two workers on
both databases: deals share the tournament's row (PostgreSQL: ``FOR SHARE``) rather than
taking turns on it, so each entrant must still get its deal, and none twice, when every
entrant asks for it twice at the same moment."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from threading import Barrier

import httpx

from testkit.server import running_server
from tests.support.fairplay import SUITE_OPERATOR as OPERATOR

ENV = {"FOURSQUARE_RATE_LIMIT_ENABLED": "false"}
ENTRANTS = 16


def test_entrants_dealing_at_once_each_get_their_deal_once(database_url: str) -> None:
    with (
        running_server(database_url, extra_env=ENV, workers=2) as server,
        httpx.Client(base_url=server.base_url, timeout=60) as api,
    ):
        start = datetime.now(UTC) - timedelta(minutes=1)  # in the past: it runs at once
        body = {
            "name": "Rush cup",
            "starts_at": start.isoformat(),
            "ends_at": (start + timedelta(hours=1)).isoformat(),
            "deals": 2,
            "guests": True,
        }
        created = api.post("/tournaments", json=body, headers=OPERATOR)
        assert created.status_code == 201, created.text
        path = f"/tournaments/{created.json()['id']}"
        tokens = []
        for index in range(ENTRANTS):
            joined = api.post(f"{path}/entrants", json={"name": f"rusher{index}"})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])

        together = Barrier(2 * ENTRANTS, timeout=60)

        def ask(token: str) -> httpx.Response:
            with httpx.Client(base_url=server.base_url, timeout=60) as own:
                own.get("/health")  # connected first, so that the asks leave together
                together.wait()
                return own.post(f"{path}/games", headers={"Authorization": f"Bearer {token}"})

        # Every entrant asks twice at once: one of the two is dealt deal 1, the other is
        # refused as a deal in progress (the key of (tournament, entrant, deal) decides).
        with ThreadPoolExecutor(2 * ENTRANTS) as pool:
            answers = list(pool.map(ask, [token for token in tokens for _ in range(2)]))
        games = set()
        for index in range(ENTRANTS):
            pair = answers[2 * index : 2 * index + 2]
            statuses = sorted(answer.status_code for answer in pair)
            assert statuses == [201, 409], [answer.text for answer in pair]
            dealt = next(answer for answer in pair if answer.status_code == 201).json()
            refused = next(answer for answer in pair if answer.status_code == 409)
            assert refused.json()["type"].endswith("deal_in_progress"), refused.text
            assert dealt["deal"] == 1
            games.add(dealt["game_id"])
            you = api.get(path, headers={"Authorization": f"Bearer {tokens[index]}"}).json()
            assert you["you"]["current_game"] == dealt["game_id"]
            assert you["you"]["next_deal"] is None
        assert len(games) == ENTRANTS
