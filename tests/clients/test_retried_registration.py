"""docs/clients.md's retried registration, run as it is written with the generated Python
client (from the checkout) against a real ``foursquare serve``, on SQLite and on PostgreSQL:
after a first try whose connection dropped before its answer was read, the example's retry with
the same Idempotency-Key gets the account's key."""

from __future__ import annotations

import re
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest

from testkit.server import running_server
from tests.support.raw_http import post_request, send_and_drop

ROOT = Path(__file__).resolve().parents[2]
DEADLINE = 60.0


def example() -> str:
    text = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- retried registration -->\n```python\n(.*?)```", text, re.DOTALL)
    assert found, "docs/clients.md lost its retried registration"
    return found.group(1)


def test_the_documented_retry_gets_the_key_of_a_registration_whose_answer_was_lost(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "clients" / "python"))
    with running_server(database_url) as server, httpx.Client(base_url=server.base_url) as http:
        code = example().replace("http://127.0.0.1:8000", server.base_url)
        namespace: dict[str, Any] = {}
        exec(compile(code, "clients.md", "exec"), namespace)  # registers "ana", as written
        me = http.get("/players/me", headers={"Authorization": f"Bearer {namespace['player_key']}"})
        assert me.json()["name"] == "ana"

        key = str(uuid.uuid4())
        send_and_drop(
            server.port, post_request("/players", {"name": "bea"}, {"Idempotency-Key": key})
        )
        deadline = time.monotonic() + DEADLINE
        while http.get("/players/bea").status_code != 200:  # the lost first try registered
            assert time.monotonic() < deadline, "the dropped registration never committed"
            time.sleep(0.05)

        guest = namespace["Client"](base_url=server.base_url)
        player_key = namespace["register"](guest, "bea", key)
        me = http.get("/players/me", headers={"Authorization": f"Bearer {player_key}"})
        assert me.json()["name"] == "bea"
        with pytest.raises(RuntimeError, match="'bea' is taken"):
            namespace["register"](guest, "bea", str(uuid.uuid4()))  # without the key: lost
