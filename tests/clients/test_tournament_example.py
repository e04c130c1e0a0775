"""docs/clients.md's tournament, run as it is written with the generated Python client (from
the checkout) against a real ``foursquare serve``, on SQLite and on PostgreSQL: a guest joins,
deals and plays every deal, and reads the standings around itself, which count each deal."""

from __future__ import annotations

import contextlib
import io
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from testkit.server import running_server

ROOT = Path(__file__).resolve().parents[2]
OPERATOR_KEY = "o" * 40


def example() -> str:
    text = (ROOT / "docs" / "clients.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- tournament -->\n```python\n(.*?)```", text, re.DOTALL)
    assert found, "docs/clients.md lost its tournament"
    return found.group(1)


def test_the_documented_tournament_joins_plays_every_deal_and_reads_the_standings(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "clients" / "python"))
    env = {"FOURSQUARE_OPERATOR_KEYS": f"lead:{OPERATOR_KEY}"}
    with (
        running_server(database_url, extra_env=env) as server,
        httpx.Client(base_url=server.base_url) as http,
    ):
        start = datetime.now(UTC)
        created = http.post(
            "/tournaments",
            json={
                "name": "Docs cup",
                "starts_at": start.isoformat(),
                "ends_at": (start + timedelta(hours=1)).isoformat(),
                "deals": 2,
                "guests": True,
            },
            headers={"Authorization": f"Bearer {OPERATOR_KEY}"},
        )
        assert created.status_code == 201, created.text
        tournament = created.json()["id"]
        code = example().replace("http://127.0.0.1:8000", server.base_url)
        code = code.replace('"the tournament\'s id"', repr(tournament))
        namespace: dict[str, Any] = {}
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, "clients.md", "exec"), namespace)
        assert printed.getvalue().startswith("provisional [(1, 'ana', 2, ")
        standings = http.get(f"/tournaments/{tournament}/standings").json()
        (entry,) = standings["entries"]
        assert (entry["name"], entry["deals_played"], entry["rank"]) == ("ana", 2, 1)
        # Sealed until the end: the standings name no game, and nobody else reads ana's.
        assert entry["games"] is None
        dealt = http.get(f"/tournaments/{tournament}").json()
        assert dealt["you"] is None and dealt["reveal"] is None
