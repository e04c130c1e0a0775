"""An account's credentials under concurrent requests, against a real server on both
databases: of two revocations that would leave an account without a key, one is refused;
of many sign-ins with one recovery code, one gets a key."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx

from testkit.server import running_server

ENV = {"FOURSQUARE_RATE_LIMIT_ENABLED": "false"}


def bearer(secret: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {secret}"}


def test_concurrent_revocations_never_leave_an_account_without_a_key(database_url: str) -> None:
    with (
        running_server(database_url, extra_env=ENV, workers=2) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as api,
    ):
        for round_ in range(5):
            name = f"racer_{round_}"
            first = api.post("/players", json={"name": name}).json()["key"]
            second = api.post(f"/players/{name}/keys", json={"name": "b"}, headers=bearer(first))
            ids = [
                k["id"]
                for k in api.get(f"/players/{name}/credentials", headers=bearer(first)).json()[
                    "keys"
                ]
            ]

            def revoke(signing: str, key_id: str, name: str = name) -> int:
                with httpx.Client(base_url=server.base_url, timeout=30) as own:
                    return own.delete(
                        f"/players/{name}/keys/{key_id}", headers=bearer(signing)
                    ).status_code

            keys = [first, second.json()["key"]]
            with ThreadPoolExecutor(2) as pool:
                # Each key revokes the other one.
                statuses = sorted(pool.map(revoke, keys, [ids[1], ids[0]]))
            assert statuses[0] == 204 and statuses[1] in (403, 409), statuses
            alive = [
                k for k in keys if api.get("/players/me", headers=bearer(k)).status_code == 200
            ]
            assert len(alive) == 1


def test_a_recovery_code_spent_by_many_at_once_gives_one_key(database_url: str) -> None:
    with (
        running_server(database_url, extra_env=ENV, workers=2) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as api,
    ):
        code = api.post("/players", json={"name": "ana"}).json()["recovery_codes"][0]

        def spend(_: int) -> dict[str, Any]:
            with httpx.Client(base_url=server.base_url, timeout=30) as own:
                answer = own.post("/sign-in/recovery-code", json={"name": "ana", "code": code})
                return {"status": answer.status_code, "body": answer.json()}

        with ThreadPoolExecutor(10) as pool:
            answers = list(pool.map(spend, range(10)))
        won = [a for a in answers if a["status"] == 201]
        assert len(won) == 1, answers
        assert all(a["body"]["code"] == "invalid_recovery_code" for a in answers if a not in won)
        key = won[0]["body"]["key"]
        listed = api.get("/players/ana/credentials", headers=bearer(key)).json()
        assert listed["recovery_codes_left"] == 9 and len(listed["keys"]) == 2
